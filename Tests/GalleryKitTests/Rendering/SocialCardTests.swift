import Testing

@testable import GalleryKit

/// The Open Graph and Twitter card tags that make a shared link show the album and its cover.
@Suite struct SocialCardTests {
    static func renderer(baseURL: String, description: String = "", titles: [String] = ["First", "Second", "Third"], images: [TileImage]? = nil) throws -> SiteRenderer {
        var config = SiteConfig()
        config.title = "Records"
        config.description = description
        config.baseURL = baseURL
        config.carousel.initialAlbum = .number(2)
        let catalogue = Catalogue(albums: titles.map { Album(title: $0, artist: "The Band", genre: "Jazz", year: 1969, coverURL: "c.png") })
        let plan = SitePlan(catalogue: catalogue, carousel: config.carousel, basePath: config.basePath)
        return SiteRenderer(
            plan: plan,
            templates: try TemplateSet.load(overridesIn: nil),
            config: config,
            images: images ?? catalogue.entries.map { TileImage(src: "covers/\($0.index)-100.webp", large: "covers/\($0.index)-300.webp") },
            assets: AssetPaths(css: "assets/gallery.1.css", js: "assets/gallery.2.js")
        )
    }

    /// The `<meta>` tags of a page's head that describe it to link previews, in order.
    static func cardTags(_ renderer: SiteRenderer, _ page: SitePlan.Page) -> [String] {
        let html = String(decoding: renderer.render(page), as: UTF8.self)
        return html.split(separator: "\n").filter { $0.hasPrefix("<meta property=\"og:") || $0.hasPrefix("<meta name=\"twitter:") }.map(String.init)
    }

    @Test func anAlbumPageDescribesItsAlbumAndCover() throws {
        let renderer = try Self.renderer(baseURL: "https://example.org/music/")
        #expect(Self.cardTags(renderer, .album(index: 0)) == [
            "<meta property=\"og:type\" content=\"music.album\"/>",
            "<meta property=\"og:site_name\" content=\"Records\"/>",
            "<meta property=\"og:title\" content=\"First\"/>",
            "<meta property=\"og:description\" content=\"The Band · Jazz · 1969\"/>",
            "<meta property=\"og:url\" content=\"https://example.org/music/albums/the-band-first/\"/>",
            "<meta property=\"og:image\" content=\"https://example.org/music/covers/0-300.webp\"/>",
            "<meta property=\"og:image:type\" content=\"image/webp\"/>",
            "<meta property=\"og:image:width\" content=\"300\"/>",
            "<meta property=\"og:image:height\" content=\"300\"/>",
            "<meta property=\"og:image:alt\" content=\"Cover of First by The Band\"/>",
            "<meta name=\"twitter:card\" content=\"summary\"/>",
        ])
    }

    @Test func theIndexDescribesTheSiteWithItsCurrentAlbumsCover() throws {
        let counted = try Self.renderer(baseURL: "https://example.org/")
        let tags = Self.cardTags(counted, .index(number: 1))
        #expect(tags.prefix(5) == [
            "<meta property=\"og:type\" content=\"website\"/>",
            "<meta property=\"og:site_name\" content=\"Records\"/>",
            "<meta property=\"og:title\" content=\"Records\"/>",
            "<meta property=\"og:description\" content=\"3 albums\"/>",
            "<meta property=\"og:url\" content=\"https://example.org/\"/>",
        ])
        // The index opens on album 2 (`initial_album = 2`), so its cover stands for the site.
        #expect(tags.contains("<meta property=\"og:image\" content=\"https://example.org/covers/1-300.webp\"/>"))
        #expect(tags.contains("<meta property=\"og:image:alt\" content=\"Cover of Second by The Band\"/>"))
        let described = try Self.renderer(baseURL: "https://example.org/", description: "Jazz & more", titles: ["Only"])
        #expect(Self.cardTags(described, .index(number: 1)).contains("<meta property=\"og:description\" content=\"Jazz &amp; more\"/>"))
        #expect(String(decoding: described.render(.index(number: 1)), as: UTF8.self).contains("<meta name=\"description\" content=\"Jazz &amp; more\"/>"))
        #expect(String(decoding: described.render(.album(index: 0)), as: UTF8.self).contains("<meta name=\"description\" content=\"Only by The Band (Jazz, 1969)\"/>"))
        let empty = try Self.renderer(baseURL: "https://example.org/", titles: [])
        let emptyTags = Self.cardTags(empty, .index(number: 1))
        #expect(emptyTags.contains("<meta property=\"og:description\" content=\"0 albums\"/>"))
        #expect(!emptyTags.contains { $0.contains("og:image") })
    }

    @Test func pagesHaveNoCardWithoutAnAbsoluteBaseURLAndTheNotFoundPageNever() throws {
        for baseURL in ["/", "/music/"] {
            let renderer = try Self.renderer(baseURL: baseURL)
            for page in renderer.plan.pages {
                #expect(Self.cardTags(renderer, page).isEmpty, "\(baseURL) \(page)")
            }
        }
        let absolute = try Self.renderer(baseURL: "https://example.org/")
        #expect(Self.cardTags(absolute, .notFound).isEmpty)
    }

    @Test func aCoverPreviewsCannotShowIsLeftOutOfTheCard() throws {
        let images = [
            TileImage(src: "covers/a.svg", large: nil),
            TileImage(src: "covers/b.svg", large: "covers/b.svg"),
            TileImage(src: "assets/placeholder.png", large: "assets/placeholder.png", isPlaceholder: true),
            TileImage(src: "covers/d-100.jpg", large: "covers/d-300.JPG"),
        ]
        let renderer = try Self.renderer(baseURL: "https://example.org/", titles: ["A", "B", "C", "D"], images: images)
        for index in 0..<3 {
            let tags = Self.cardTags(renderer, .album(index: index))
            #expect(tags.count == 6, "album \(index): \(tags)")
            #expect(!tags.contains { $0.contains("og:image") }, "album \(index)")
        }
        #expect(Self.cardTags(renderer, .album(index: 3)).contains("<meta property=\"og:image:type\" content=\"image/jpeg\"/>"))
    }

    @Test func mediaTypesComeFromTheExtension() {
        let cases: [(String, String?)] = [
            ("covers/a.webp", "image/webp"), ("covers/a.jpg", "image/jpeg"), ("covers/a.jpeg", "image/jpeg"),
            ("covers/a.PNG", "image/png"), ("covers/a.gif", "image/gif"), ("covers/a.svg", nil),
            ("covers/a", nil), ("covers.webp/a", nil), ("a.tar.webp", "image/webp"),
        ]
        for (path, type) in cases {
            #expect(SocialImage.mediaType(ofPath: path) == type, "\(path)")
        }
    }

    @Test func hostileAlbumTextIsEscapedInTheCardAndThePageStaysValid() throws {
        let hostile = "<script>alert(1)</script> \"AT&T\" 'q' 🎸 مرحبا \u{1}"
        let renderer = try Self.renderer(baseURL: "https://example.org/", titles: [hostile])
        let tags = Self.cardTags(renderer, .album(index: 0))
        #expect(tags.contains("<meta property=\"og:title\" content=\"&lt;script&gt;alert(1)&lt;/script&gt; &quot;AT&amp;T&quot; &#39;q&#39; 🎸 مرحبا \u{FFFD}\"/>"))
        let validator = PageValidator(outputPaths: SiteRendererTests.outputs(renderer))
        for page in renderer.plan.pages {
            let diagnostics = validator.validateXHTML(renderer.render(page), path: renderer.plan.path(of: page))
            #expect(diagnostics.isEmpty, "\(page): \(diagnostics)")
        }
    }
}
