/// Every page a build writes and where, decided from the catalogue and the settings before
/// anything is rendered, so links can be checked against the complete list of outputs.
public struct SitePlan: Sendable {
    /// A page of the site.
    public enum Page: Sendable, Hashable {
        /// An index page, from 1; page 1 is the site's `index.html`.
        case index(number: Int)
        /// The page of the album at this position.
        case album(index: Int)
        /// `404.html`.
        case notFound
    }

    /// The strip's geometry for all albums.
    public let layout: ScrollerLayout
    /// The albums and their slugs.
    public let catalogue: Catalogue
    /// How many neighbours on each side an album page carries.
    public let window: Int
    /// How many albums each index page carries.
    public let indexPageSize: Int
    /// The album the index opens on, clamped to the albums.
    public let initialIndex: Int
    /// The path part of the site's base URL (`/` or `/project/`): the 404 page, served at any
    /// path, links from there.
    public let basePath: String

    /// Plans a site.
    public init(catalogue: Catalogue, carousel: SiteConfig.Carousel, basePath: String = "/") {
        self.catalogue = catalogue
        self.basePath = basePath
        self.layout = ScrollerLayout(count: catalogue.count, metrics: carousel.metrics)
        self.window = carousel.window
        self.indexPageSize = max(1, carousel.indexPageSize)
        let requested: Int
        switch carousel.initialAlbum {
        // Int.min less one would trap: any number below 1 is the first album all the same.
        case .number(let number): requested = number < 1 ? 0 : number - 1
        case .slug(let slug): requested = catalogue.entries.firstIndex { $0.slug == slug } ?? 0
        }
        self.initialIndex = layout.clamped(requested)
    }

    /// The number of index pages (at least one, even for an empty catalogue).
    public var indexPageCount: Int { max(1, (catalogue.count + indexPageSize - 1) / indexPageSize) }

    /// Every page in a stable order: index pages, album pages, then 404.
    public var pages: [Page] {
        (1...indexPageCount).map { Page.index(number: $0) } + catalogue.entries.indices.map { Page.album(index: $0) } + [.notFound]
    }

    /// The albums an index page's strip carries.
    public func albums(onIndexPage number: Int) -> Range<Int> {
        let start = (number - 1) * indexPageSize
        return min(start, catalogue.count)..<min(start + indexPageSize, catalogue.count)
    }

    /// The current (highlighted) album of an index page: the initial album if the page holds it,
    /// else the page's first album.
    public func currentAlbum(onIndexPage number: Int) -> Int {
        let range = albums(onIndexPage: number)
        return range.contains(initialIndex) ? initialIndex : range.lowerBound
    }

    /// The albums an album page's strip carries: the window around it.
    public func albums(aroundAlbum index: Int) -> Range<Int> {
        layout.window(around: index, radius: window)
    }

    /// The output path of a page, relative to the output folder.
    public func path(of page: Page) -> String {
        switch page {
        case .index(let number): number == 1 ? "index.html" : "page/\(number)/index.html"
        case .album(let index): Self.albumFolder(slug: catalogue.entries[index].slug) + "index.html"
        case .notFound: "404.html"
        }
    }

    /// The folder of an album page, relative to the output folder: `albums/SLUG/`.
    public static func albumFolder(slug: String) -> String {
        var folder = ""
        folder.reserveCapacity(slug.utf8.count + 8)
        appendAlbumFolder(slug: slug, to: &folder)
        return folder
    }

    /// Appends ``albumFolder(slug:)`` to `text`, for a link made in one string (a tile's).
    static func appendAlbumFolder(slug: String, to text: inout String) {
        text += "albums/"
        text += slug
        text += "/"
    }

    /// The prefix from a page back to the output root: `./` at the top, `../../` for pages two
    /// folders down, and the base path for the 404 page, which servers show at any path.
    public func root(of page: Page) -> String {
        switch page {
        case .index(1): "./"
        case .notFound: basePath
        case .index, .album: "../../"
        }
    }

    /// The page's URL relative to the site root, as links and the sitemap use it: `albums/SLUG/`.
    public func url(of page: Page) -> String {
        switch page {
        case .index(let number): number == 1 ? "" : "page/\(number)/"
        case .album(let index): Self.albumFolder(slug: catalogue.entries[index].slug)
        case .notFound: "404.html"
        }
    }

    /// The output paths of every page.
    public var pagePaths: [String] { pages.map(path(of:)) }
}
