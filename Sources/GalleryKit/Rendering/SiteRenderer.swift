/// Renders the site's pages from the plan, the tile images and the templates: the pure heart of
/// the render step (no disk, no network), so it is tested without either.
public struct SiteRenderer: Sendable {
    /// What to render.
    public let plan: SitePlan
    /// How.
    public let templates: TemplateSet
    /// The settings.
    public let config: SiteConfig
    /// Each album's images, by position.
    public let images: [TileImage]
    /// The fingerprinted asset paths.
    public let assets: AssetPaths
    /// The albums' tiles as seen from the top folder (`./`) and from two folders down (`../../`):
    /// pages differ only in which tiles they show and which is current.
    private let topTiles: TileSource
    private let nestedTiles: TileSource
    /// The analytics provider's scripts, the same on every page (their URLs are absolute).
    private let analytics: [TemplateValue]
    /// `[text]`'s `album_by`, each tile's `alt`: made once, filled in per tile.
    private let albumBy: TextPattern
    /// `site`, the same for every page.
    private let site: SiteContext
    /// `[text]`'s patterns about the current album, parsed once rather than for every page.
    private let coverOf: TextPattern
    private let noCoverFor: TextPattern
    private let albumDescription: TextPattern

    /// The viewport width, in CSS pixels, assumed for the tiles a page shows when it opens: their
    /// images load at once (no `loading="lazy"`). Wider than the built-in style's strip (60rem),
    /// so a wider custom style still finds its first tiles loaded.
    static let openingViewportWidth = 1280.0

    /// Creates a renderer; `images` must have one entry per album.
    public init(plan: SitePlan, templates: TemplateSet, config: SiteConfig, images: [TileImage], assets: AssetPaths) {
        precondition(images.count == plan.catalogue.count, "one tile image per album")
        self.plan = plan
        self.templates = templates
        self.config = config
        self.images = images
        self.assets = assets
        albumBy = TextPattern(config.text["album_by"])
        coverOf = TextPattern(config.text["cover_of"])
        noCoverFor = TextPattern(config.text["no_cover_for"])
        albumDescription = TextPattern(config.text["album_description"])
        topTiles = TileSource(plan: plan, images: images, albumBy: albumBy, root: "./")
        nestedTiles = TileSource(plan: plan, images: images, albumBy: albumBy, root: "../../")
        analytics = (config.analytics.provider?.scripts(baseURL: config.baseURL) ?? []).map { .object(AnalyticsScriptContext($0)) }
        site = SiteContext(
            title: Escape.xmlCharacters(config.title),
            description: Escape.xmlCharacters(config.description),
            language: Escape.xmlCharacters(config.language),
            count: plan.catalogue.count,
            text: config.text,
            params: ParamsContext(config.params.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }, isComplete: true)
        )
    }

    /// A renderer of the same pages that shares no parsed template, tile source or site context
    /// with this one, for one of several threads that render at once (see
    /// ``TemplateSet/isolated()``).
    func isolated() -> SiteRenderer {
        SiteRenderer(plan: plan, templates: templates.isolated(), config: config, images: images, assets: assets)
    }

    /// The template that renders a page.
    public func templateName(for page: SitePlan.Page) -> String {
        switch page {
        case .index: "index"
        case .album: "album"
        case .notFound: "404"
        }
    }

    /// Renders a page to XHTML, as UTF-8 bytes.
    ///
    /// - Parameter fragments: Tiles already rendered by this task, reused (pass the same cache
    ///   for consecutive pages; the output is identical without it).
    public func render(_ page: SitePlan.Page, fragments: FragmentCache? = nil) -> [UInt8] {
        templates.render(templateName(for: page), context: .object(context(for: page)), fragments: fragments)
    }

    /// Renders a page, copying its tiles from the previous build's page where `splice` has them
    /// and recording where each lies (see ``FragmentSplice``); the bytes are those of
    /// ``render(_:fragments:)``.
    func render(_ page: SitePlan.Page, splice: FragmentSplice) -> [UInt8] {
        templates.render(templateName(for: page), context: .object(context(for: page)), fragments: nil, splice: splice, capacity: splice.old.count + 16_384)
    }

    /// Renders a page with a trace of which template line wrote each run of output.
    func renderTraced(_ page: SitePlan.Page) -> (output: [UInt8], trace: [MustacheRenderer.TraceEntry]) {
        templates.renderTraced(templateName(for: page), context: .object(context(for: page)))
    }

    /// The template context for a page.
    func context(for page: SitePlan.Page) -> PageContext {
        let root = plan.root(of: page)
        let entries = plan.catalogue.entries
        var current = plan.initialIndex
        var tileRange = 0..<0
        var pager = PagerContext(number: 1, count: plan.indexPageCount, pattern: config.text["page_of"])
        var previous: LinkContext?
        var next: LinkContext?
        switch page {
        case .index(let number):
            current = plan.currentAlbum(onIndexPage: number)
            tileRange = plan.albums(onIndexPage: number)
            pager = PagerContext(
                number: number, count: plan.indexPageCount,
                previous: number > 1 ? root + plan.url(of: .index(number: number - 1)) : nil,
                next: number < plan.indexPageCount ? root + plan.url(of: .index(number: number + 1)) : nil,
                pattern: config.text["page_of"]
            )
        case .album(let index):
            current = index
            tileRange = plan.albums(aroundAlbum: index)
            if index > 0 { previous = link(to: index - 1, root: root) }
            if index + 1 < entries.count { next = link(to: index + 1, root: root) }
        case .notFound:
            break
        }
        // The variant tells the roots apart in fragment-cache keys; another root's tiles are not cached.
        let (source, variant): (TileSource, Int?) = root == topTiles.root ? (topTiles, 0) : root == nestedTiles.root ? (nestedTiles, 1)
            : (TileSource(plan: plan, images: images, albumBy: albumBy, root: root), nil)
        let opening = plan.layout.initiallyVisibleRange(centredOn: current, viewportWidth: Self.openingViewportWidth)
        let tiles: [TemplateValue] = tileRange.map { index in
            let isCurrent = index == current
            let ownPage = if case .album = page { isCurrent } else { false }
            return .object(TileContext(index: index, current: isCurrent, ownPage: ownPage, lazy: !opening.contains(index), variant: variant, source: source))
        }
        var album: AlbumContext?
        // The 404 page shows no album: a `{{#album}}` in the base layout is left out there.
        if !entries.isEmpty, page != .notFound {
            let entry = entries[current]
            let fields = (title: Escape.xmlCharacters(entry.album.title), artist: Escape.xmlCharacters(entry.album.artist), genre: Escape.xmlCharacters(entry.album.genre))
            let placeholder = images[current].isPlaceholder
            album = AlbumContext(
                title: fields.title,
                artist: fields.artist,
                genre: fields.genre,
                year: entry.album.year,
                slug: entry.slug,
                number: current + 1,
                image: root + (images[current].large ?? images[current].src),
                imageSize: config.thumbnails.large,
                placeholder: placeholder,
                coverAlt: (placeholder ? noCoverFor : coverOf).fillAlbum(title: fields.title, artist: fields.artist, genre: fields.genre, year: entry.album.year),
                params: ParamsContext(entry.album.params)
            )
        }
        let canonical = config.hasAbsoluteBaseURL && page != .notFound ? config.baseURL + plan.url(of: page) : nil
        return PageContext(
            site: site,
            root: root,
            canonical: canonical,
            description: description(of: page, album: album, site: site),
            social: canonical.map { socialCard(for: page, album: album, image: entries.isEmpty ? nil : images[current], site: site, url: $0) },
            assets: AssetsContext(css: assets.css, js: assets.js, icon: assets.icon),
            analytics: analytics,
            carousel: CarouselContext(layout: plan.layout, page: templateName(for: page), current: current, tiles: tiles, firstIndex: tileRange.lowerBound),
            album: album,
            previous: previous,
            next: next,
            pager: pager
        )
    }

    /// What a search result shows of a page: on an album's page the album, elsewhere the site's
    /// `description` (none when it is empty).
    private func description(of page: SitePlan.Page, album: AlbumContext?, site: SiteContext) -> String? {
        if case .album = page, let album {
            return albumDescription.fillAlbum(title: album.title, artist: album.artist, genre: album.genre, year: album.year)
        }
        return site.description.isEmpty ? nil : site.description
    }

    /// The link preview of a page at `url` (absolute) showing `album` (the current one, with its
    /// `image`): the album's, on its page; the site's, with the album's cover, on an index page.
    private func socialCard(for page: SitePlan.Page, album: AlbumContext?, image: TileImage?, site: SiteContext, url: String) -> SocialCard {
        let description = site.description.isEmpty ? site.albumCount : site.description
        guard let album, let image else {
            return SocialCard(type: "website", siteName: site.title, title: site.title, description: description, url: url)
        }
        let cover = SocialImage(image, size: album.imageSize, baseURL: config.baseURL, alt: coverOf.fillAlbum(title: album.title, artist: album.artist, genre: album.genre, year: album.year))
        if case .album = page {
            return SocialCard(type: "music.album", siteName: site.title, title: album.title, description: "\(album.artist) · \(album.genre) · \(album.year)", url: url, image: cover)
        }
        return SocialCard(type: "website", siteName: site.title, title: site.title, description: description, url: url, image: cover)
    }

    private func link(to index: Int, root: String) -> LinkContext {
        let entry = plan.catalogue.entries[index]
        return LinkContext(href: root + SitePlan.albumFolder(slug: entry.slug), title: Escape.xmlCharacters(entry.album.title))
    }

    /// Prefixes each URL of a `srcset` (`a.webp 1x, b.webp 2x`) with the page's root.
    static func prefixingSrcset(_ srcset: String, with root: String) -> String {
        // One candidate that starts at once (gallery's own `covers/x-200.webp 2x`): one string.
        if let first = srcset.utf8.first, first != UInt8(ascii: " "), !srcset.utf8.contains(UInt8(ascii: ",")) {
            return root + srcset
        }
        if !srcset.isEmpty, !srcset.utf8.contains(UInt8(ascii: ",")), srcset.contains(where: { $0 != " " }) {
            return root + srcset.drop { $0 == " " }
        }
        return srcset.split(separator: ",").map { candidate in
            let trimmed = candidate.drop { $0 == " " }
            return root + trimmed
        }.joined(separator: ", ")
    }
}

/// The fingerprinted paths of the stylesheet and the script, relative to the output folder.
public struct AssetPaths: Sendable, Hashable {
    /// The stylesheet, e.g. `assets/gallery.3fa2b1c0de.css`.
    public var css: String
    /// The script, e.g. `assets/gallery.9e8d7c6b5a.js`.
    public var js: String
    /// The site's icon, when `static/` has one (`favicon.ico`, `.png` or `.svg`, the first of
    /// those): pages link it, where without one they say there is none (no request for
    /// `/favicon.ico`, which a site under a sub-path does not hold).
    public var icon: String?

    /// Creates asset paths.
    public init(css: String, js: String, icon: String? = nil) {
        self.css = css
        self.js = js
        self.icon = icon
    }
}
