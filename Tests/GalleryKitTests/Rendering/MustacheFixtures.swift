@testable import GalleryKit

/// Page contexts for the built-in templates: made by the real ``SiteRenderer`` from sites with
/// ordinary and hostile album text.
enum MustacheFixtures {
    /// Album text meant to break pages: markup, entities, quotes, emoji, right-to-left text,
    /// Mustache tags, control characters and line breaks.
    static let hostileTexts = [
        "<script>alert('owned')</script>",
        "Tom & Jerry's \"Greatest\" Hits",
        "Rock &amp; Roll &#39;already&#39; escaped",
        "😀 Emoji 👩‍👩‍👧 family 🇳🇴",
        "مرحبا بالعالم",
        "\u{202E}reversed\u{202C} and \u{200F}marks",
        "Café and cafe\u{301}",
        "{{title}} {{#site}}injection{{/site}} {{{raw}}}",
        "Tab\tand\r\nline breaks\nhere",
        "bell\u{7} and nul\u{0} and \u{FFFE}",
        String(repeating: "Long title ", count: 40),
        "",
    ]

    /// A small site: the name, its settings and its albums.
    struct Site {
        var name: String
        var config: SiteConfig
        var albums: [Album]
    }

    static var sites: [Site] {
        var hostile = SiteConfig()
        hostile.title = "<b>Albums</b> & \"Friends\" 'n' 😀"
        hostile.description = "A <site> for 'music' & \"more\""
        hostile.baseURL = "https://example.com/my gallery/"
        hostile.language = "ar\"><x"
        hostile.carousel.indexPageSize = 2
        // Its domain comes from the base URL.
        hostile.analytics = .plausible(PlausibleAnalytics())
        var large = SiteConfig()
        large.carousel.window = 15
        large.analytics = .google(GoogleAnalytics(measurementID: "G-FIXTURE42"))
        return [
            Site(name: "ordinary", config: SiteConfig(), albums: ordinaryAlbums(5)),
            Site(name: "hostile", config: hostile, albums: hostileAlbums),
            Site(name: "empty", config: SiteConfig(), albums: []),
            Site(name: "large", config: large, albums: ordinaryAlbums(40)),
        ]
    }

    static func ordinaryAlbums(_ count: Int) -> [Album] {
        (0..<count).map { Album(title: "Album \($0 + 1)", artist: "Artist \($0 % 7)", genre: "Jazz", year: 1950 + $0, coverURL: "covers/\($0).jpg") }
    }

    static var hostileAlbums: [Album] {
        hostileTexts.enumerated().map { index, text in
            Album(title: text, artist: hostileTexts[(index + 3) % hostileTexts.count], genre: hostileTexts[(index + 5) % hostileTexts.count], year: 1000 + index, coverURL: "covers/\(index).jpg", slug: "album-\(index)")
        }
    }

    /// Every page of `site`: the template that renders it and its context.
    static func pages(of site: Site) throws -> [(name: String, template: String, context: PageContext)] {
        let catalogue = Catalogue(albums: site.albums)
        let plan = SitePlan(catalogue: catalogue, carousel: site.config.carousel, basePath: site.config.basePath)
        let images = catalogue.entries.indices.map { index in
            TileImage(
                src: "covers/\(index)-100.webp",
                srcset: index % 2 == 0 ? "covers/\(index)-100.webp 1x, covers/\(index)-200.webp 2x" : nil,
                large: index % 3 == 0 ? "covers/\(index)-600.webp" : nil
            )
        }
        let renderer = SiteRenderer(
            plan: plan,
            templates: try TemplateSet.load(overridesIn: nil),
            config: site.config,
            images: images,
            assets: AssetPaths(css: "assets/gallery.0123456789.css", js: "assets/gallery.9876543210.js")
        )
        return plan.pages.map { page in
            ("\(site.name) \(plan.path(of: page))", renderer.templateName(for: page), renderer.context(for: page))
        }
    }

    /// An album page's context with `tiles` tiles, made from albums as a build makes them;
    /// `sparse` leaves out the album, the previous album and the site's description.
    static func albumPage(tiles count: Int, sparse: Bool = false) -> PageContext {
        let albums = (0..<count).map { Album(title: "Album \($0)", artist: "Artist & Friends", genre: "Jazz", year: 1969, coverURL: "c.png", slug: "album-\($0)") }
        let plan = SitePlan(catalogue: Catalogue(albums: albums), carousel: .init())
        let images = (0..<count).map { index in
            TileImage(src: "covers/album-\(index).webp", srcset: index % 3 == 0 ? nil : "covers/album-\(index).webp 1x, covers/album-\(index)@2x.webp 2x")
        }
        let source = TileSource(plan: plan, images: images, albumBy: TextPattern(SiteText()["album_by"]), root: "../../")
        let layout = plan.layout
        let tiles: [TemplateValue] = (0..<count).map { index in
            .object(TileContext(index: index, current: index == count / 2, variant: nil, source: source))
        }
        return PageContext(
            site: SiteContext(title: "Records", description: sparse ? "" : "Albums I love", language: "en", count: count),
            root: "../../",
            canonical: nil,
            assets: AssetsContext(css: "assets/gallery.css", js: "assets/gallery.js"),
            analytics: GoatCounterAnalytics(endpoint: GoatCounterAnalytics.endpoint(code: "records")).scripts(baseURL: "/").map { .object(AnalyticsScriptContext($0)) },
            carousel: CarouselContext(layout: layout, page: "album", current: count / 2, tiles: tiles, firstIndex: 0),
            album: sparse ? nil : AlbumContext(title: "Album", artist: "Artist", genre: "Jazz", year: 1969, slug: "album", number: 1, image: nil, imageSize: 300),
            previous: sparse ? nil : LinkContext(href: "../prev/", title: "Previous"),
            next: nil,
            pager: PagerContext(number: 1, count: 1)
        )
    }
}
