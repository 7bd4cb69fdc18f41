/// The values a page template sees, as Mustache contexts that answer by name without reflection
/// (``TemplateObject``), so rendering needs no reflection or dynamic casts.
///
/// Every string here is album or site text and is escaped by Mustache's `{{…}}`; values are first
/// cleaned of characters XML forbids, so no album text can break a page.
final class PageContext: TemplateObject, @unchecked Sendable {
    let site: SiteContext
    let root: String
    let canonical: String?
    /// The page's description for search results: the album's own on its page ("Title by
    /// Artist (Genre, Year)"), the site's elsewhere; `nil` for none.
    let description: String?
    let analytics: [TemplateValue]
    /// `index`, `album` or `404`.
    let page: String
    /// The objects below, each made a value once.
    private let social: TemplateValue
    private let assets: TemplateValue
    private let carousel: TemplateValue
    private let album: TemplateValue
    private let previous: TemplateValue
    private let next: TemplateValue
    private let pager: TemplateValue

    init(site: SiteContext, root: String, canonical: String?, description: String? = nil, social: SocialCard? = nil, assets: AssetsContext, analytics: [TemplateValue],
         carousel: CarouselContext, album: AlbumContext?, previous: LinkContext?, next: LinkContext?, pager: PagerContext) {
        self.site = site
        self.root = root
        self.canonical = canonical
        self.description = description
        self.analytics = analytics
        page = carousel.page
        self.social = .object(social)
        self.assets = .object(assets)
        self.carousel = .object(carousel)
        self.album = .object(album)
        self.previous = .object(previous)
        self.next = .object(next)
        self.pager = .object(pager)
    }

    override var keys: [String] {
        ["site", "root", "canonical", "description", "social", "assets", "analytics", "carousel", "album", "previous", "next", "pager", "text", "isIndex", "isAlbum", "isNotFound"]
    }

    override func value(forKey name: String) -> TemplateValue? {
        // Told apart by length first, as in `TileContext`: every name a page's layout looks up
        // comes here first.
        switch (name.utf8.count, name) {
        case (4, "site"): .object(site)
        case (4, "root"): .text(root)
        case (9, "canonical"): .text(canonical)
        case (11, "description"): .text(description)
        case (6, "social"): social
        case (6, "assets"): assets
        case (9, "analytics"): .list(analytics)
        case (8, "carousel"): carousel
        case (5, "album"): album
        case (8, "previous"): previous
        case (4, "next"): next
        case (5, "pager"): pager
        case (4, "text"): .object(site.textContext)
        // Which page this is, for a layout that differs (a nav's aria-current, a heading).
        case (7, "isIndex"): .bool(page == "index")
        case (7, "isAlbum"): .bool(page == "album")
        case (10, "isNotFound"): .bool(page == "404")
        default: nil
        }
    }
}

/// `site`: the site's settings. One per build, shared by every page (an object, so a page's
/// `{{site.…}}` hands out a reference rather than a copy); its values are made once.
final class SiteContext: TemplateObject, @unchecked Sendable {
    let title: String
    let description: String
    let language: String
    let count: Int
    /// "1 album", "5 albums", in `[text]`'s words.
    let albumCount: String
    /// The site's own values (`[params]`).
    let params: ParamsContext
    /// `text`, as pages see it.
    let textContext: TextContext
    private let direction: TemplateValue

    init(title: String, description: String, language: String, count: Int, text: SiteText = SiteText(), params: ParamsContext = ParamsContext([])) {
        self.title = title
        self.description = description
        self.language = language
        self.count = count
        albumCount = text.albumCount(count)
        self.params = params
        textContext = TextContext(text: text)
        direction = Self.isRightToLeft(language) ? .text("rtl") : .null
    }

    override var keys: [String] { ["title", "params", "description", "language", "direction", "count", "countText"] }

    override func value(forKey name: String) -> TemplateValue? {
        switch (name.utf8.count, name) {
        case (5, "title"): .text(title)
        case (6, "params"): .object(params)
        case (11, "description"): description.isEmpty ? .null : .text(description)
        case (8, "language"): .text(language)
        case (9, "direction"): direction
        case (5, "count"): .number(count)
        case (9, "countText"): .text(albumCount)
        default: nil
        }
    }
}

extension SiteContext {
    /// The languages written right to left when no script is named, by primary subtag (`he`,
    /// `ar-EG`, `fa`…): their pages get `dir="rtl"`.
    static let rightToLeft: Set<String> = ["ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "lrc", "mzn", "nqo", "ps", "sd", "syr", "ug", "ur", "yi"]

    /// The scripts written right to left (ISO 15924), for a tag that names one (`pa-Arab`,
    /// `az-Arab`; and `sd-Deva`, `ug-Cyrl`, written left to right whatever the language).
    static let rightToLeftScripts: Set<String> = ["adlm", "arab", "aran", "hebr", "mand", "mend", "nkoo", "rohg", "samr", "syrc", "thaa", "yezi"]

    /// Whether `language` (a BCP 47 tag) is written right to left: by its script subtag when it
    /// has one (four letters after the language), else by the language.
    static func isRightToLeft(_ language: String) -> Bool {
        let subtags = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
        let primary = subtags.first ?? ""
        if let script = subtags.dropFirst().first(where: { $0.count == 4 && $0.allSatisfy(\.isLetter) }) {
            return rightToLeftScripts.contains(script)
        }
        return rightToLeft.contains(primary)
    }
}

/// `text`: the words gallery puts on pages, as `[text]` gives them or in English
/// (``SiteText``). A pattern (`page_of`…) is shown as written, placeholders and all. Made once
/// per build, each word looked up once.
final class TextContext: TemplateObject, @unchecked Sendable {
    private let values: [String: TemplateValue]

    init(text: SiteText) {
        values = Dictionary(uniqueKeysWithValues: SiteText.names.map { ($0, TemplateValue.text(text[$0])) })
    }

    override var keys: [String] { values.keys.sorted() }

    override func value(forKey name: String) -> TemplateValue? {
        values[name]
    }
}

/// `assets`: fingerprinted stylesheet and script paths, and the site's icon in `static/` if it
/// has one, relative to the site root.
final class AssetsContext: TemplateObject, @unchecked Sendable {
    let css: String
    let js: String
    let icon: String?

    init(css: String, js: String, icon: String? = nil) {
        self.css = css
        self.js = js
        self.icon = icon
    }

    override var keys: [String] { ["css", "js", "icon"] }

    override func value(forKey name: String) -> TemplateValue? {
        switch (name.utf8.count, name) {
        case (3, "css"): .text(css)
        case (2, "js"): .text(js)
        case (4, "icon"): .text(icon)
        default: nil
        }
    }
}

/// One item of `analytics`: a `<script>` element of the `[analytics]` provider.
final class AnalyticsScriptContext: TemplateObject, @unchecked Sendable {
    let attributes: [TemplateValue]
    let code: String?

    init(_ script: AnalyticsScript) {
        attributes = script.attributes.map { .object(AttributeContext(name: $0.name, value: Escape.xmlCharacters($0.value))) }
        code = script.code
    }

    override var keys: [String] { ["attributes", "code"] }

    override func value(forKey name: String) -> TemplateValue? {
        switch (name.utf8.count, name) {
        case (10, "attributes"): .list(attributes)
        case (4, "code"): code.map(TemplateValue.markup) ?? .null
        default: nil
        }
    }
}

/// One attribute of an element: `name` and `value`.
final class AttributeContext: TemplateObject, @unchecked Sendable {
    let name: String
    let value: String

    init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    override var keys: [String] { ["name", "value"] }

    override func value(forKey key: String) -> TemplateValue? {
        switch key {
        case "name": .text(name)
        case "value": .text(value)
        default: nil
        }
    }
}

/// `carousel`: the strip with the tiles this page carries, placed by ``ScrollerLayout``.
final class CarouselContext: TemplateObject, @unchecked Sendable {
    let layout: ScrollerLayout
    /// `index`, `album` or `404`, for the script.
    let page: String
    let current: Int
    let tiles: [TemplateValue]
    let firstIndex: Int

    init(layout: ScrollerLayout, page: String, current: Int, tiles: [TemplateValue], firstIndex: Int) {
        self.layout = layout
        self.page = page
        self.current = current
        self.tiles = tiles
        self.firstIndex = firstIndex
    }

    override var keys: [String] { ["tiles", "page", "chunk", "count", "current", "padding", "dimension", "offset", "width", "height", "first"] }

    override func value(forKey name: String) -> TemplateValue? {
        switch (name.utf8.count, name) {
        case (5, "tiles"): .list(tiles)
        case (4, "page"): .text(page)
        case (5, "chunk"): .number(DataFile.chunkSize)
        case (5, "count"): .number(layout.count)
        case (7, "current"): .number(current)
        case (7, "padding"): .number(layout.metrics.padding)
        case (9, "dimension"): .number(layout.metrics.dimension)
        case (6, "offset"): .number(layout.metrics.offset)
        case (5, "width"): .number(layout.contentWidth)
        case (6, "height"): .number(layout.stripHeight)
        case (5, "first"): .number(firstIndex)
        default: nil
        }
    }
}

/// `album`: the details table's rows.
final class AlbumContext: TemplateObject, @unchecked Sendable {
    let title: String
    let artist: String
    let genre: String
    let year: Int
    let slug: String
    let number: Int
    /// The album page's cover image: the large thumbnail, or the placeholder when the album has
    /// no usable cover (so a page shows the same at any album, and nothing below it moves).
    let image: String?
    /// Its width and height in pixels.
    let imageSize: Int
    /// Whether `image` is the placeholder, not the album's cover.
    let placeholder: Bool
    /// The image's `alt`: `[text]`'s `cover_of`, or `no_cover_for` for the placeholder.
    let coverAlt: String
    /// The album's own fields (`"params"`).
    let params: ParamsContext

    init(title: String, artist: String, genre: String, year: Int, slug: String, number: Int, image: String?, imageSize: Int,
         placeholder: Bool = false, coverAlt: String = "", params: ParamsContext = ParamsContext([])) {
        self.title = title
        self.artist = artist
        self.genre = genre
        self.year = year
        self.slug = slug
        self.number = number
        self.image = image
        self.imageSize = imageSize
        self.placeholder = placeholder
        self.coverAlt = coverAlt
        self.params = params
    }

    override var keys: [String] { ["title", "artist", "genre", "year", "slug", "number", "image", "imageSize", "placeholder", "coverAlt", "params"] }

    override func value(forKey name: String) -> TemplateValue? {
        switch (name.utf8.count, name) {
        case (5, "title"): .text(title)
        case (6, "artist"): .text(artist)
        case (5, "genre"): .text(genre)
        case (4, "year"): .number(year)
        case (4, "slug"): .text(slug)
        case (6, "number"): .number(number)
        case (5, "image"): .text(image)
        case (9, "imageSize"): .number(imageSize)
        case (11, "placeholder"): .bool(placeholder)
        case (8, "coverAlt"): .text(coverAlt)
        case (6, "params"): .object(params)
        default: nil
        }
    }
}

/// `album.params`: the album's own fields. A name the album does not have renders as nothing
/// (another album may have it), and the template check leaves these names alone.
final class ParamsContext: TemplateObject, @unchecked Sendable {
    let values: [String: TemplateValue]
    /// Whether a name it lacks is unknown (the site's `[params]`, all known when the site is
    /// built, so a template's slip can be told), rather than empty (an album's, which another
    /// album may have).
    let isComplete: Bool

    /// The fields of an album (or the site's `[params]`), cleaned of characters XML forbids.
    init(_ params: [(key: String, value: Album.Param)], isComplete: Bool = false) {
        self.isComplete = isComplete
        values = Dictionary(params.map { param in
            let value: TemplateValue = switch param.value {
            case .text(let text): .text(Escape.xmlCharacters(text))
            case .number(let text): .text(text)
            case .flag(let flag): .bool(flag)
            }
            return (param.key, value)
        }, uniquingKeysWith: { first, _ in first })
    }

    /// The album's own fields; any other name answers `.null` (another album may have it), or
    /// for the site's, nothing.
    override var keys: [String] { values.keys.sorted() }

    override func value(forKey name: String) -> TemplateValue? {
        values[name] ?? (isComplete ? nil : .null)
    }
}

/// `previous` / `next`: a neighbouring album.
final class LinkContext: TemplateObject, @unchecked Sendable {
    let href: String
    let title: String

    init(href: String, title: String) {
        self.href = href
        self.title = title
    }

    override var keys: [String] { ["href", "title"] }

    override func value(forKey name: String) -> TemplateValue? {
        switch (name.utf8.count, name) {
        case (4, "href"): .text(href)
        case (5, "title"): .text(title)
        default: nil
        }
    }
}

/// `pager`: where an index page stands among the index pages.
final class PagerContext: TemplateObject, @unchecked Sendable {
    let number: Int
    let count: Int
    let previous: String?
    let next: String?
    /// `[text]`'s `page_of`.
    let pattern: String

    init(number: Int, count: Int, previous: String? = nil, next: String? = nil, pattern: String = SiteText()["page_of"]) {
        self.number = number
        self.count = count
        self.previous = previous
        self.next = next
        self.pattern = pattern
    }

    override var keys: [String] { ["text", "number", "count", "isPaged", "isFirst", "previous", "next"] }

    override func value(forKey name: String) -> TemplateValue? {
        switch (name.utf8.count, name) {
        case (4, "text"): .text(TextPattern(pattern).fill { $0 == "number" ? String(number) : $0 == "count" ? String(count) : nil })
        case (6, "number"): .number(number)
        case (5, "count"): .number(count)
        case (7, "isPaged"): .bool(count > 1)
        case (7, "isFirst"): .bool(number == 1)
        case (8, "previous"): .text(previous)
        case (4, "next"): .text(next)
        default: nil
        }
    }
}
