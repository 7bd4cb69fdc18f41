import Foundation
import Testing

@testable import GalleryKit

/// The renderer as a pure function: plan, images and templates in, pages out; no disk.
@Suite struct SiteRendererTests {
    static func catalogue(_ titles: [String], artist: String = "Artist") -> Catalogue {
        Catalogue(albums: titles.map { Album(title: $0, artist: artist, genre: "Pop", year: 2001, coverURL: "c.png") })
    }

    static func renderer(_ catalogue: Catalogue, carousel: SiteConfig.Carousel = .init(), templates: TemplateSet? = nil) throws -> SiteRenderer {
        let plan = SitePlan(catalogue: catalogue, carousel: carousel)
        let images = catalogue.entries.map { TileImage(src: "covers/\($0.index).png", srcset: "covers/\($0.index)@2x.png 2x", large: "covers/\($0.index)-300.png") }
        return SiteRenderer(
            plan: plan,
            templates: try templates ?? TemplateSet.load(overridesIn: nil),
            config: SiteConfig(),
            images: images,
            assets: AssetPaths(css: "assets/gallery.1.css", js: "assets/gallery.2.js")
        )
    }

    /// Every file a site of this plan holds, for the validator.
    static func outputs(_ renderer: SiteRenderer) -> Set<String> {
        var paths = Set(renderer.plan.pagePaths + SiteFiles.generated + ["assets/gallery.1.css", "assets/gallery.2.js"] + DataFile.chunkPaths(count: renderer.plan.catalogue.count))
        for image in renderer.images {
            paths.insert(image.src)
            if let srcset = image.srcset { paths.insert(String(srcset.split(separator: " ")[0])) }
            if let large = image.large { paths.insert(large) }
        }
        return paths
    }

    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func everyPageOfASiteIsValid() throws {
        let renderer = try Self.renderer(Self.catalogue((1...40).map { "Title \($0)" }), carousel: .init(window: 3, indexPageSize: 16))
        let validator = PageValidator(outputPaths: Self.outputs(renderer))
        #expect(renderer.plan.pages.count == 3 + 40 + 1)
        for page in renderer.plan.pages {
            let bytes = renderer.render(page)
            let path = renderer.plan.path(of: page)
            let diagnostics = validator.validateXHTML(bytes, path: path)
            #expect(diagnostics.isEmpty, "\(page): \(diagnostics)")
            // The built-in templates' pages take the one-pass check, not the tree: a build pays
            // for a second parse of every page the check is unsure of.
            let passed = XHTMLStreamCheck.passes(bytes, resolver: validator.resolver(for: path))
            #expect(passed, "\(page) fell back to the tree-based validation")
        }
    }

    @Test func reusingTileFragmentsChangesNoByte() throws {
        let renderer = try Self.renderer(Self.catalogue((1...30).map { "Title \($0) & <more>" }), carousel: .init(window: 4, indexPageSize: 7))
        let fragments = FragmentCache()
        for page in renderer.plan.pages {
            #expect(renderer.render(page, fragments: fragments) == renderer.render(page), "\(page)")
        }
        #expect(!fragments.entries.isEmpty)
        // A partial that reads a value from below its object is never cached.
        var sources = renderer.templates.sources
        sources["partials/tile"] = .init(text: "<li>{{root}}{{title}}</li>\n", origin: .builtin)
        let leaky = try Self.renderer(renderer.plan.catalogue, templates: TemplateSet(sources: sources))
        let cache = FragmentCache()
        for page in leaky.plan.pages { #expect(leaky.render(page, fragments: cache) == leaky.render(page)) }
        #expect(cache.entries.isEmpty)
        // A strip whose section holds only the tile partial is copied from the cache a list at
        // a time: inline, indented, or among other text, the bytes are the same.
        for strip in ["{{#carousel.tiles}}{{>partials/tile}}{{/carousel.tiles}}", "  <ol>\n    {{#carousel.tiles}}\n    {{>partials/tile}}\n    {{/carousel.tiles}}\n  </ol>\n", "{{#carousel.tiles}}<b>{{>partials/tile}}</b>{{/carousel.tiles}}"] {
            var sources = renderer.templates.sources
            let carousel = try #require(sources["partials/carousel"]?.text)
            let start = try #require(carousel.range(of: "{{#carousel.tiles}}")), end = try #require(carousel.range(of: "{{/carousel.tiles}}\n"))
            sources["partials/carousel"] = .init(text: carousel.replacingCharacters(in: start.lowerBound..<end.upperBound, with: strip), origin: .builtin)
            let variant = try Self.renderer(renderer.plan.catalogue, templates: TemplateSet(sources: sources))
            let cache = FragmentCache()
            for page in variant.plan.pages { #expect(variant.render(page, fragments: cache) == variant.render(page), "\(strip): \(page)") }
            #expect(!cache.entries.isEmpty)
        }
    }

    /// A page's tiles and the objects its templates name are handed out without copying: a
    /// template value is an object's reference or a string at most (two words and its case), so
    /// copying one retains one pointer, and `album`, `carousel` and the rest come back as the
    /// same object each time a template names them.
    @Test func pageValuesAreSharedNotCopied() throws {
        #expect(MemoryLayout<TemplateValue>.size <= 2 * MemoryLayout<Int>.size + 1)
        let renderer = try Self.renderer(Self.catalogue((1...5).map { "Title \($0)" }))
        let context = renderer.context(for: .album(index: 2))
        for key in ["album", "carousel", "pager", "assets", "previous", "next"] {
            guard case .object(let first)? = context.value(forKey: key), case .object(let second)? = context.value(forKey: key) else {
                Issue.record("\(key) is not an object")
                continue
            }
            let (a, b): (AnyObject, AnyObject) = (first as AnyObject, second as AnyObject)
            let same = a === b
            #expect(same, "\(key) is copied")
        }
        let source = TileSource(plan: renderer.plan, images: renderer.images, albumBy: TextPattern("{title}"), root: "./")
        let tile = TileContext(index: 3, current: true, variant: 1, source: source)
        #expect(tile.current && tile.lazy && !tile.ownPage && tile.variant == 1 && tile.fragmentKey == 3 * 16 + 8 + 4 + 1)
        let other = TileContext(index: 3, current: true, ownPage: true, lazy: false, variant: nil, source: source)
        #expect(other.current && !other.lazy && other.ownPage && other.variant == nil && other.fragmentKey == nil)
    }

    /// A renderer for another thread renders every page byte for byte as the one it was made
    /// from, and walks templates of its own: no parsed text shares storage with the original's.
    @Test func anIsolatedRendererRendersTheSameFromTemplatesOfItsOwn() throws {
        let renderer = try Self.renderer(Self.catalogue((1...12).map { "Title \($0) & <more>" }), carousel: .init(window: 3, indexPageSize: 5))
        let copy = renderer.isolated()
        for page in renderer.plan.pages {
            #expect(copy.render(page) == renderer.render(page), "\(page)")
        }
        func textStorage(_ set: TemplateSet) -> [String: [UInt]] {
            set.compiled.mapValues { template in
                template.nodes.compactMap { node -> UInt? in
                    guard case .text(let bytes, _) = node else { return nil }
                    return bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
                }
            }
        }
        let original = textStorage(renderer.templates)
        let isolated = textStorage(copy.templates)
        #expect(Set(original.keys) == Set(isolated.keys))
        #expect(original.values.contains { !$0.isEmpty })
        for (name, addresses) in original {
            #expect(Set(addresses).isDisjoint(with: isolated[name] ?? []), "\(name) shares text with the original")
        }
    }

    /// A tile template shows its album's artist, genre, year and params, as the album page's
    /// `album` has them (a caption, a price badge), escaped; a param an album does not have is
    /// empty.
    @Test func tilesGiveTheirTemplateTheAlbumsFields() throws {
        let albums = [
            Album(title: "Blue", artist: "Joni <Mitchell>", genre: "Folk", year: 1971, coverURL: "c.png", extras: [.init(key: "params", json: #"{"price":"12 €","signed":true}"#)]),
            Album(title: "Kind of Blue", artist: "Miles Davis", genre: "Jazz", year: 1959, coverURL: "c.png"),
        ]
        var sources = try TemplateSet.load(overridesIn: nil).sources
        sources["partials/tile"] = .init(text: "<li class=\"tile\" data-index=\"{{index}}\">{{title}}|{{artist}}|{{genre}}|{{year}}|{{params.price}}|{{#params.signed}}signed{{/params.signed}}</li>\n", origin: .site(path: "templates/partials/tile.mustache"))
        let renderer = try Self.renderer(Catalogue(albums: albums), templates: TemplateSet(sources: sources))
        for page in [SitePlan.Page.index(number: 1), .album(index: 1)] {
            let html = text(renderer.render(page, fragments: FragmentCache()))
            #expect(html.contains("data-index=\"0\">Blue|Joni &lt;Mitchell&gt;|Folk|1971|12 €|signed</li>"), "\(page)")
            #expect(html.contains("data-index=\"1\">Kind of Blue|Miles Davis|Jazz|1959||</li>"), "\(page)")
        }
    }

    @Test func tilesArePlacedByTheEngine() throws {
        let metrics = ScrollerMetrics(padding: 4, dimension: 60, offset: 30)
        let renderer = try Self.renderer(Self.catalogue(["A", "B", "C"]), carousel: .init(metrics: metrics))
        let index = text(renderer.render(.index(number: 1)))
        let layout = ScrollerLayout(count: 3, metrics: metrics)
        for tile in 0..<3 {
            let frame = layout.frame(at: tile)
            #expect(index.contains("style=\"left:\(frame.x)px;top:\(frame.y)px\" data-index=\"\(tile)\""))
        }
        #expect(index.contains("style=\"width:\(layout.contentWidth)px;height:\(layout.stripHeight)px;--tile:60px;--pad:\(metrics.padding)px\""))
        #expect(index.contains("width=\"60\" height=\"60\""))
        #expect(index.contains("srcset=\"./covers/0@2x.png 2x\""))
    }

    @Test func albumPagesHighlightTheirTileAndLinkNeighbours() throws {
        let renderer = try Self.renderer(Self.catalogue(["First", "Second", "Third"]))
        let page = text(renderer.render(.album(index: 1)))
        #expect(page.contains("<li class=\"tile current\""))
        #expect(page.contains("<a href=\"../../albums/artist-second/\" aria-current=\"page\">"))
        #expect(page.components(separatedBy: "aria-current").count == 2)
        #expect(page.contains("<a rel=\"prev\" href=\"../../albums/artist-first/\"><span class=\"arrow\" aria-hidden=\"true\">←</span> <bdi>First</bdi></a>"))
        #expect(page.contains("<a rel=\"next\" href=\"../../albums/artist-third/\"><bdi>Third</bdi> <span class=\"arrow\" aria-hidden=\"true\">→</span></a>"))
        #expect(page.contains("<td data-field=\"title\" dir=\"auto\">Second</td>"))
        #expect(page.contains("<img class=\"cover\" src=\"../../covers/1-300.png\" fetchpriority=\"high\" width=\"300\" height=\"300\" alt=\"Cover of Second by Artist\" data-alt=\"Cover of {title} by {artist}\" data-alt-none=\"No cover for {title} by {artist}\"/>"))
        let first = text(renderer.render(.album(index: 0)))
        #expect(!first.contains("rel=\"prev\""))
        // Each album page describes its album to search engines; the index has the site's
        // description, and none when it is empty.
        #expect(page.contains("<meta name=\"description\" content=\"Second by Artist (Pop, 2001)\"/>"))
        #expect(first.contains("<meta name=\"description\" content=\"First by Artist (Pop, 2001)\"/>"))
        #expect(!text(renderer.render(.index(number: 1))).contains("name=\"description\""))
    }

    @Test func onlyTilesOffScreenWhenThePageOpensLoadLazily() throws {
        let renderer = try Self.renderer(Self.catalogue((1...100).map { "Title \($0)" }), carousel: .init(window: 15, indexPageSize: 1000))
        func eager(_ page: SitePlan.Page) -> [Int] {
            text(renderer.render(page)).split(separator: "<li class=\"tile").dropFirst().compactMap { tile in
                guard !tile.contains("loading=\"lazy\"") else { return nil }
                let index = tile.split(separator: "data-index=\"")[1].prefix { $0 != "\"" }
                return Int(index)
            }
        }
        // A 1280 px viewport centred on tile i shows tiles whose 100 px frames at 110 + 120·i
        // meet it: i − 5 to i + 5 in the middle, the first or last ten at the ends.
        #expect(eager(.album(index: 50)) == Array(45...55))
        #expect(eager(.album(index: 2)) == Array(0...9))
        #expect(eager(.album(index: 97)) == Array(90...99))
        #expect(eager(.index(number: 1)) == Array(0...9))
        // The album page's cover is fetched first.
        #expect(text(renderer.render(.album(index: 50))).contains("<img class=\"cover\" src=\"../../covers/50-300.png\" fetchpriority=\"high\""))
    }

    /// An album without a cover shows the placeholder at the cover's size, said so in its alt
    /// text and in the data files, so the script can show it too and nothing moves.
    @Test func anAlbumWithoutACoverShowsThePlaceholderAsItsCover() throws {
        let catalogue = Self.catalogue(["First", "Second"])
        let plan = SitePlan(catalogue: catalogue, carousel: .init())
        let images = [TileImage(src: "covers/0.png", large: "covers/0-300.png"), TileImage(src: "assets/placeholder.1.svg", isPlaceholder: true)]
        let renderer = SiteRenderer(plan: plan, templates: try TemplateSet.load(overridesIn: nil), config: SiteConfig(), images: images, assets: AssetPaths(css: "a.css", js: "a.js"))
        let page = text(renderer.render(.album(index: 1)))
        #expect(page.contains("<img class=\"cover\" src=\"../../assets/placeholder.1.svg\" fetchpriority=\"high\" width=\"300\" height=\"300\" alt=\"No cover for Second by Artist\" data-alt="))
        #expect(text(renderer.render(.album(index: 0))).contains("alt=\"Cover of First by Artist\" data-alt="))
        let data = text(DataFile.render(plan: plan, images: images))
        #expect(data.contains("\"cover\":\"assets/placeholder.1.svg\",\"placeholder\":true}"), "\(data)")
        #expect(data.contains("\"cover\":\"covers/0-300.png\"}"), "\(data)")
    }

    /// A site with no albums says so, instead of an empty strip and an empty table.
    @Test func anEmptySiteSaysSo() throws {
        let renderer = try Self.renderer(Self.catalogue([]))
        let index = text(renderer.render(.index(number: 1)))
        #expect(index.contains("<p class=\"empty\">There are no albums here yet.</p>"))
        #expect(!index.contains("id=\"carousel\"") && !index.contains("id=\"details\""))
        #expect(PageValidator(outputPaths: Self.outputs(renderer)).validateXHTML(renderer.render(.index(number: 1)), path: "index.html").isEmpty)
    }

    @Test func theNumberOfAlbumsIsInWords() throws {
        for (count, words) in [(1, "1 album"), (2, "2 albums"), (0, "0 albums")] {
            let renderer = try Self.renderer(Self.catalogue((0..<count).map { "T\($0)" }))
            #expect(text(renderer.render(.index(number: 1))).contains("<p>\(words) · "), "\(count)")
            let svg = CarouselSVG.render(plan: renderer.plan, images: renderer.images, title: "Albums", language: "en-GB")
            #expect(text(svg).contains(" lang=\"en-GB\" xml:lang=\"en-GB\">\n<title>Albums</title>\n<desc>\(words)</desc>\n"), "\(count)")
        }
    }

    @Test func hostileTextIsEscapedAndThePageStaysValid() throws {
        let hostile = "<script>alert(1)</script> AT&T \"q\" 'a' 🎸 مرحبا \u{1}"
        let renderer = try Self.renderer(Self.catalogue([hostile, "Plain"], artist: "<b>&amp;</b>"))
        let page = text(renderer.render(.album(index: 0)))
        #expect(!page.contains("<script>"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; AT&amp;T &quot;q&quot; &#39;a&#39; 🎸 مرحبا \u{FFFD}"))
        #expect(page.contains("&lt;b&gt;&amp;amp;&lt;/b&gt;"))
        let validator = PageValidator(outputPaths: Self.outputs(renderer))
        #expect(validator.validateXHTML(Array(page.utf8), path: renderer.plan.path(of: .album(index: 0))).isEmpty)
        let svg = CarouselSVG.render(plan: renderer.plan, images: renderer.images, title: hostile)
        #expect(validator.validateSVG(svg, path: "carousel.svg").isEmpty)
        #expect(validator.diagnoseSVG(svg, path: "carousel.svg").isEmpty)
        let schema = try PageValidator.carouselSchema.get()
        #expect(XMLStreamCheck.passesCarousel(svg, schema: schema, resolver: validator.resolver(for: "carousel.svg")), "the strip takes the streaming path")
        #expect(XMLStreamCheck.parsesCleanly(Sitemap.render(plan: renderer.plan, baseURL: "https://example.org/sub/")), "so does the sitemap")
        let json = DataFile.render(plan: renderer.plan, images: renderer.images)
        let decoded = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any]
        #expect((decoded?["albums"] as? [[String: Any]])?.first?["title"] as? String == hostile)
    }

    @Test func aBrokenTemplateIsRefusedWithItsPosition() {
        var sources = (try? TemplateSet.load(overridesIn: nil).sources) ?? [:]
        sources["partials/tile"] = .init(text: "<li>\n  {{#current}}x\n</li>\n", origin: .site(path: "templates/partials/tile.mustache"))
        sources["404"] = nil
        do {
            _ = try TemplateSet(sources: sources)
            Issue.record("a broken template set was accepted")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "templates/partials/tile.mustache:2:3: error: template 'partials/tile' does not parse: 'current' is never closed; add {{/current}}",
                "templates/404.mustache: error: there is no template '404'; gallery needs one for its pages",
            ])
        }
    }

    @Test func aTemplateMistakeIsTracedToItsLine() throws {
        var sources = try TemplateSet.load(overridesIn: nil).sources
        sources["partials/details"] = .init(text: "<table id=\"details\">\n<tr><td>{{album.title}}<br></td></tr>\n</table>\n", origin: .site(path: "templates/partials/details.mustache"))
        let renderer = try Self.renderer(Self.catalogue(["A"]), templates: TemplateSet(sources: sources))
        let page = renderer.plan.pages[1]
        let bytes = renderer.render(page)
        let diagnostics = PageValidator(outputPaths: Self.outputs(renderer)).validateXHTML(bytes, path: renderer.plan.path(of: page))
        let (output, trace) = renderer.renderTraced(page)
        #expect(output == bytes)
        let attributed = TemplateAttribution.attribute(diagnostics, output: output, trace: trace, templates: renderer.templates)
        #expect(attributed.first?.template == "templates/partials/details.mustache:2")
    }

    /// A duplicate id's first use was told by its line in the page, next to the template line
    /// of the second: it is named by the template that wrote it, or else by the page's path.
    @Test func aDuplicateIdsFirstUseIsNamedByItsTemplate() throws {
        var sources = try TemplateSet.load(overridesIn: nil).sources
        let base = try #require(sources["base"]).text.replacingOccurrences(of: "</main>", with: "<p id=\"details\">x</p>\n</main>")
        let line = try #require(base.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("<p id=\"details\">") }) + 1
        sources["base"] = .init(text: base, origin: .site(path: "templates/base.mustache"))
        let renderer = try Self.renderer(Self.catalogue(["A", "B"]), templates: TemplateSet(sources: sources))
        let page = SitePlan.Page.album(index: 0)
        let path = renderer.plan.path(of: page)
        let diagnostics = PageValidator(outputPaths: Self.outputs(renderer)).validateXHTML(renderer.render(page), path: path)
        let duplicate = try #require(diagnostics.first { $0.message.hasPrefix("duplicate id") })
        let firstLine = try #require(duplicate.firstUse?.line)
        #expect(duplicate.message == "duplicate id 'details' (first used on line \(firstLine))")
        let (output, trace) = renderer.renderTraced(page)
        let position = try #require(duplicate.position)
        let attributed = TemplateAttribution.attribute([duplicate], output: output, trace: trace, templates: renderer.templates, outputFolder: "public")
        #expect(attributed.map(\.description) == [
            "templates/base.mustache:\(line): error: duplicate id 'details' (first used at (built-in) templates/partials/details.mustache:1) (\(path):\(position), not written)",
        ])
        // With no template line for the first use, the page is named, with the output folder.
        let offset = try #require(TemplateAttribution.byteOffset(of: position, in: output))
        let late = trace.filter { $0.offset >= offset }
        let unattributed = TemplateAttribution.attribute([duplicate], output: output, trace: late, templates: renderer.templates, outputFolder: "public")
        #expect(unattributed.first?.message == "duplicate id 'details' (first used at public/\(path):\(try #require(duplicate.firstUse)))")
    }

    /// An element left open is reported where the element around it closes, in the base
    /// layout; the finding names the template that opened it.
    @Test func anElementLeftOpenIsTracedToTheTemplateThatOpenedIt() throws {
        var sources = try TemplateSet.load(overridesIn: nil).sources
        let album = try #require(sources["album"]).text
        let lines = album.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("{{>partials/details}}") }) + 1
        sources["album"] = .init(text: album.replacingOccurrences(of: "{{>partials/details}}", with: "{{>partials/details}}<br>"), origin: .site(path: "templates/album.mustache"))
        let renderer = try Self.renderer(Self.catalogue(["A", "B"]), templates: TemplateSet(sources: sources))
        let page = SitePlan.Page.album(index: 1)
        let bytes = renderer.render(page)
        let diagnostics = PageValidator(outputPaths: Self.outputs(renderer)).validateXHTML(bytes, path: renderer.plan.path(of: page))
        #expect(diagnostics.first?.message.hasPrefix("Opening and ending tag mismatch: br line ") == true, "\(diagnostics)")
        let (output, trace) = renderer.renderTraced(page)
        let attributed = TemplateAttribution.attribute(diagnostics, output: output, trace: trace, templates: renderer.templates)
        #expect(attributed.first?.template == "templates/album.mustache:\(line)", "\(attributed)")
    }

    @Test func plansPathsRootsAndPages() {
        let plan = SitePlan(catalogue: Self.catalogue((1...5).map { "T\($0)" }), carousel: .init(initialAlbum: .slug("artist-t4"), window: 1, indexPageSize: 2), basePath: "/sub/")
        #expect(plan.pagePaths == [
            "index.html", "page/2/index.html", "page/3/index.html",
            "albums/artist-t1/index.html", "albums/artist-t2/index.html", "albums/artist-t3/index.html",
            "albums/artist-t4/index.html", "albums/artist-t5/index.html", "404.html",
        ])
        #expect(plan.root(of: .index(number: 1)) == "./")
        #expect(plan.root(of: .index(number: 2)) == "../../")
        #expect(plan.root(of: .album(index: 0)) == "../../")
        #expect(plan.root(of: .notFound) == "/sub/")
        #expect(plan.initialIndex == 3)
        // Numbers out of range are clamped, the smallest Int too (its number less one trapped).
        for (number, index) in [(Int.min, 0), (-1, 0), (0, 0), (2, 1), (6, 4), (Int.max, 4)] {
            let clamped = SitePlan(catalogue: Self.catalogue((1...5).map { "T\($0)" }), carousel: .init(initialAlbum: .number(number)))
            #expect(clamped.initialIndex == index, "\(number)")
        }
        #expect(plan.currentAlbum(onIndexPage: 2) == 3)
        #expect(plan.currentAlbum(onIndexPage: 3) == 4)
        #expect(plan.albums(aroundAlbum: 0) == 0..<2)
        #expect(SitePlan(catalogue: Catalogue(albums: []), carousel: .init()).pagePaths == ["index.html", "404.html"])
    }

    @Test func prefixesEverySourceSetCandidateWithTheRoot() {
        let cases = [
            ("covers/a-200.webp 2x", "../../covers/a-200.webp 2x"),
            ("  covers/a-200.webp 2x", "../../covers/a-200.webp 2x"),
            ("covers/a.webp 1x, covers/b.webp 2x", "../../covers/a.webp 1x, ../../covers/b.webp 2x"),
            ("covers/a.webp 1x,covers/b.webp 2x", "../../covers/a.webp 1x, ../../covers/b.webp 2x"),
            ("", ""),
            ("   ", "../../"),
        ]
        for (srcset, expected) in cases {
            #expect(SiteRenderer.prefixingSrcset(srcset, with: "../../") == expected, "\(srcset.debugDescription)")
        }
    }
}
