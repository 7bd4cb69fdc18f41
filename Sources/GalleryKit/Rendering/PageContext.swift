/// The values a page template sees, as Mustache contexts that answer by name without reflection
/// (``TemplateObject``), so rendering needs no reflection or dynamic casts.
///
/// Every string here is album or site text and is escaped by Mustache's `{{…}}`; values are first
/// cleaned of characters XML forbids, so no album text can break a page.
struct PageContext: TemplateObject {
    var site: SiteContext
    var root: String
    var canonical: String?
    /// The page's description for search results: the album's own on its page ("Title by
    /// Artist (Genre, Year)"), the site's elsewhere; `nil` for none.
    var description: String?
    var social: SocialCard?
    var assets: AssetsContext
    var analytics: [TemplateValue]
    var carousel: CarouselContext
    var album: AlbumContext?
    var previous: LinkContext?
    var next: LinkContext?
    var pager: PagerContext

    var keys: [String] {
        ["site", "root", "canonical", "description", "social", "assets", "analytics", "carousel", "album", "previous", "next", "pager", "text", "isIndex", "isAlbum", "isNotFound"]
    }

    func value(forKey name: String) -> TemplateValue? {
        switch name {
        case "site": .object(site)
        case "root": .text(root)
        case "canonical": .text(canonical)
        case "description": .text(description)
        case "social": social.map { .object($0) } ?? .null
        case "assets": .object(assets)
        case "analytics": .list(analytics)
        case "carousel": .object(carousel)
        case "album": album.map { .object($0) } ?? .null
        case "previous": previous.map { .object($0) } ?? .null
        case "next": next.map { .object($0) } ?? .null
        case "pager": .object(pager)
        case "text": .object(TextContext(text: site.text))
        // Which page this is, for a layout that differs (a nav's aria-current, a heading).
        case "isIndex": .bool(carousel.page == "index")
        case "isAlbum": .bool(carousel.page == "album")
        case "isNotFound": .bool(carousel.page == "404")
        default: nil
        }
    }
}

/// `site`: the site's settings.
struct SiteContext: TemplateObject {
    var title: String
    var description: String
    var language: String
    var count: Int
    /// The words `[text]` gives.
    var text = SiteText()
    /// The site's own values (`[params]`).
    var params = ParamsContext([])

    var keys: [String] { ["title", "params", "description", "language", "direction", "count", "countText"] }

    func value(forKey name: String) -> TemplateValue? {
        switch name {
        case "title": .text(title)
        case "params": .object(params)
        case "description": description.isEmpty ? .null : .text(description)
        case "language": .text(language)
        case "direction": Self.isRightToLeft(language) ? .text("rtl") : .null
        case "count": .number(count)
        case "countText": .text(text.albumCount(count))
        default: nil
        }
    }
}

extension SiteContext {
    /// The languages written right to left, by primary subtag (`he`, `ar-EG`, `fa`…): their
    /// pages get `dir="rtl"`.
    static let rightToLeft: Set<String> = ["ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "ps", "sd", "syr", "ug", "ur", "yi"]

    /// Whether `language` (a BCP 47 tag) is written right to left.
    static func isRightToLeft(_ language: String) -> Bool {
        let primary = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        return rightToLeft.contains(primary)
    }
}

/// `text`: the words gallery puts on pages, as `[text]` gives them or in English
/// (``SiteText``). A pattern (`page_of`…) is shown as written, placeholders and all.
struct TextContext: TemplateObject {
    var text: SiteText

    var keys: [String] { SiteText.names.sorted() }

    func value(forKey name: String) -> TemplateValue? {
        SiteText.byName[name] == nil ? nil : .text(text[name])
    }
}

/// `assets`: fingerprinted stylesheet and script paths, and the site's icon in `static/` if it
/// has one, relative to the site root.
struct AssetsContext: TemplateObject {
    var css: String
    var js: String
    var icon: String?

    var keys: [String] { ["css", "js", "icon"] }

    func value(forKey name: String) -> TemplateValue? {
        switch name {
        case "css": .text(css)
        case "js": .text(js)
        case "icon": .text(icon)
        default: nil
        }
    }
}

/// One item of `analytics`: a `<script>` element of the `[analytics]` provider.
struct AnalyticsScriptContext: TemplateObject {
    var attributes: [TemplateValue]
    var code: String?

    init(_ script: AnalyticsScript) {
        attributes = script.attributes.map { .object(AttributeContext(name: $0.name, value: Escape.xmlCharacters($0.value))) }
        code = script.code
    }

    var keys: [String] { ["attributes", "code"] }

    func value(forKey name: String) -> TemplateValue? {
        switch name {
        case "attributes": .list(attributes)
        case "code": code.map(TemplateValue.markup) ?? .null
        default: nil
        }
    }
}

/// One attribute of an element: `name` and `value`.
struct AttributeContext: TemplateObject {
    var name: String
    var value: String

    var keys: [String] { ["name", "value"] }

    func value(forKey key: String) -> TemplateValue? {
        switch key {
        case "name": .text(name)
        case "value": .text(value)
        default: nil
        }
    }
}

/// `carousel`: the strip with the tiles this page carries, placed by ``ScrollerLayout``.
struct CarouselContext: TemplateObject {
    var layout: ScrollerLayout
    /// `index`, `album` or `404`, for the script.
    var page: String
    var current: Int
    var tiles: [TemplateValue]
    var firstIndex: Int

    var keys: [String] { ["tiles", "page", "chunk", "count", "current", "padding", "dimension", "offset", "width", "height", "first"] }

    func value(forKey name: String) -> TemplateValue? {
        switch name {
        case "tiles": .list(tiles)
        case "page": .text(page)
        case "chunk": .number(DataFile.chunkSize)
        case "count": .number(layout.count)
        case "current": .number(current)
        case "padding": .number(layout.metrics.padding)
        case "dimension": .number(layout.metrics.dimension)
        case "offset": .number(layout.metrics.offset)
        case "width": .number(layout.contentWidth)
        case "height": .number(layout.stripHeight)
        case "first": .number(firstIndex)
        default: nil
        }
    }
}

/// A tile of the strip: an album seen from a page, with the flags the page gives it.
///
/// Its text is made when a template asks for it, not before: a page copies most of its tiles
/// from the page in place after an edit (``FragmentSplice``), and reuses most of the others from
/// the page before it (``FragmentCache``), so a tile's links and escaped text are made for few
/// of the tiles a page shows.
struct TileContext: TemplateObject {
    /// The album's position.
    var index: Int
    var current: Bool
    /// Whether the page is the current album's own (an album page), so its link is
    /// `aria-current="page"`; on an index page the current tile is only `aria-current="true"`.
    var ownPage = false
    /// Whether the browser may wait to load its image until it nears the viewport: every tile
    /// but those the strip shows when the page opens (``SiteRenderer/openingViewportWidth``), so
    /// the images a visitor sees first are fetched at once, as the largest of them should be.
    var lazy = true
    /// Which root the links were made for (`nil`: not cacheable).
    var variant: Int?
    /// Where its values come from.
    let values: Values

    enum Values: Sendable {
        /// Made from the album when asked for.
        case album(TileSource)
        /// Given (for tests).
        case given(TileValues)
    }

    /// A tile of an album, its values made from `source` when asked for.
    init(index: Int, current: Bool, variant: Int?, source: TileSource) {
        self.index = index
        self.current = current
        self.variant = variant
        values = .album(source)
    }

    /// A tile with the values given.
    init(index: Int, count: Int, frame: TileFrame, href: String, src: String, srcset: String?, alt: String, title: String,
         artist: String, genre: String, year: Int, paramsJSON: String?, current: Bool) {
        self.index = index
        self.current = current
        values = .given(TileValues(count: count, frame: frame, href: href, src: src, srcset: srcset, alt: alt, title: title, artist: artist, genre: genre, year: year, paramsJSON: paramsJSON))
    }

    /// The album, the root, whether it is current, on its own page and lazy identify a tile's
    /// values.
    var fragmentKey: Int? {
        variant.map { index * 16 + $0 * 8 + (lazy ? 4 : 0) + (ownPage ? 2 : 0) + (current ? 1 : 0) }
    }

    var keys: [String] {
        ["index", "number", "count", "x", "y", "width", "height", "href", "src", "srcset", "alt", "title", "artist", "genre", "year", "params", "current", "ownPage", "lazy"]
    }

    func value(forKey name: String) -> TemplateValue? {
        switch name {
        case "index": return .number(index)
        case "number": return .number(index + 1)
        case "current": return .bool(current)
        case "ownPage": return .bool(ownPage)
        case "lazy": return .bool(lazy)
        default: break
        }
        switch values {
        case .given(let values): return values.value(forKey: name)
        case .album(let source): return source.value(forKey: name, of: index)
        }
    }
}

/// The values of a tile given by hand.
struct TileValues: Sendable {
    var count: Int
    var frame: TileFrame
    var href: String
    var src: String
    var srcset: String?
    var alt: String
    var title: String
    var artist: String
    var genre: String
    var year: Int
    var paramsJSON: String?

    func value(forKey name: String) -> TemplateValue? {
        switch name {
        case "count": .number(count)
        case "x": .number(frame.x)
        case "y": .number(frame.y)
        case "width": .number(frame.width)
        case "height": .number(frame.height)
        case "href": .text(href)
        case "src": .text(src)
        case "srcset": .text(srcset)
        case "alt": .text(alt)
        case "title": .text(title)
        case "artist": .text(artist)
        case "genre": .text(genre)
        case "year": .number(year)
        case "params": .object(ParamsContext(Album.params(json: paramsJSON)))
        default: nil
        }
    }
}

/// The albums' tiles as seen from pages at one root (`./`, `../../`): each value made from the
/// album when a template asks for it.
final class TileSource: Sendable {
    let plan: SitePlan
    let images: [TileImage]
    /// `[text]`'s `album_by`, each tile's `alt`.
    let albumBy: TextPattern
    /// The path from the pages' folder to the output root.
    let root: String

    init(plan: SitePlan, images: [TileImage], albumBy: TextPattern, root: String) {
        self.plan = plan
        self.images = images
        self.albumBy = albumBy
        self.root = root
    }

    func value(forKey name: String, of index: Int) -> TemplateValue? {
        let entry = plan.catalogue.entries[index]
        switch name {
        case "count": return .number(plan.catalogue.count)
        case "x": return .number(plan.layout.frame(at: index).x)
        case "y": return .number(plan.layout.frame(at: index).y)
        case "width": return .number(plan.layout.frame(at: index).width)
        case "height": return .number(plan.layout.frame(at: index).height)
        case "href": return .text(root + SitePlan.albumFolder(slug: entry.slug))
        case "src": return .text(root + images[index].src)
        case "srcset": return .text(images[index].srcset.map { SiteRenderer.prefixingSrcset($0, with: root) })
        case "alt":
            let album = entry.album
            return .text(albumBy.fillAlbum(title: Escape.xmlCharacters(album.title), artist: Escape.xmlCharacters(album.artist), genre: Escape.xmlCharacters(album.genre), year: album.year))
        case "title": return .text(Escape.xmlCharacters(entry.album.title))
        case "artist": return .text(Escape.xmlCharacters(entry.album.artist))
        case "genre": return .text(Escape.xmlCharacters(entry.album.genre))
        case "year": return .number(entry.album.year)
        case "params": return .object(ParamsContext(Album.params(json: entry.album.paramsJSON)))
        default: return nil
        }
    }
}

/// `album`: the details table's rows.
struct AlbumContext: TemplateObject {
    var title: String
    var artist: String
    var genre: String
    var year: Int
    var slug: String
    var number: Int
    /// The album page's cover image: the large thumbnail, or the placeholder when the album has
    /// no usable cover (so a page shows the same at any album, and nothing below it moves).
    var image: String?
    /// Its width and height in pixels.
    var imageSize: Int
    /// Whether `image` is the placeholder, not the album's cover.
    var placeholder = false
    /// The image's `alt`: `[text]`'s `cover_of`, or `no_cover_for` for the placeholder.
    var coverAlt = ""
    /// The album's own fields (`"params"`).
    var params = ParamsContext([])

    var keys: [String] { ["title", "artist", "genre", "year", "slug", "number", "image", "imageSize", "placeholder", "coverAlt", "params"] }

    func value(forKey name: String) -> TemplateValue? {
        switch name {
        case "title": .text(title)
        case "artist": .text(artist)
        case "genre": .text(genre)
        case "year": .number(year)
        case "slug": .text(slug)
        case "number": .number(number)
        case "image": .text(image)
        case "imageSize": .number(imageSize)
        case "placeholder": .bool(placeholder)
        case "coverAlt": .text(coverAlt)
        case "params": .object(params)
        default: nil
        }
    }
}

/// `album.params`: the album's own fields. A name the album does not have renders as nothing
/// (another album may have it), and the template check leaves these names alone.
struct ParamsContext: TemplateObject {
    var values: [String: TemplateValue]
    /// Whether a name it lacks is unknown (the site's `[params]`, all known when the site is
    /// built, so a template's slip can be told), rather than empty (an album's, which another
    /// album may have).
    var isComplete = false

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
    var keys: [String] { values.keys.sorted() }

    func value(forKey name: String) -> TemplateValue? {
        values[name] ?? (isComplete ? nil : .null)
    }
}

/// `previous` / `next`: a neighbouring album.
struct LinkContext: TemplateObject {
    var href: String
    var title: String

    var keys: [String] { ["href", "title"] }

    func value(forKey name: String) -> TemplateValue? {
        switch name {
        case "href": .text(href)
        case "title": .text(title)
        default: nil
        }
    }
}

/// `pager`: where an index page stands among the index pages.
struct PagerContext: TemplateObject {
    var number: Int
    var count: Int
    var previous: String?
    var next: String?
    /// `[text]`'s `page_of`.
    var pattern = SiteText()["page_of"]

    var keys: [String] { ["text", "number", "count", "isPaged", "isFirst", "previous", "next"] }

    func value(forKey name: String) -> TemplateValue? {
        switch name {
        case "text": .text(TextPattern(pattern).fill { $0 == "number" ? String(number) : $0 == "count" ? String(count) : nil })
        case "number": .number(number)
        case "count": .number(count)
        case "isPaged": .bool(count > 1)
        case "isFirst": .bool(number == 1)
        case "previous": .text(previous)
        case "next": .text(next)
        default: nil
        }
    }
}
