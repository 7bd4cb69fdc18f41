import Foundation
import FoundationXML
import GalleryKit
import Testing

/// `gallery build` making real thumbnails with libvips, and a warm build making none.
@Suite struct ThumbnailBuildTests {
    /// The `summary` event of a `--log-format json` run.
    func summary(_ run: GalleryBinary.Run) throws -> [String: Any] {
        let line = try #require(run.stdout.split(separator: "\n").last { $0.contains("\"event\":\"summary\"") })
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// How many thumbnails a run made and took from the cache, in that order.
    func thumbnails(_ run: GalleryBinary.Run) throws -> [Int] {
        let counts = try #require(try summary(run)["thumbnails"] as? [String: Any])
        return [counts["made"] as? Int ?? -1, counts["cached"] as? Int ?? -1]
    }

    /// An attribute of the first element an XPath finds.
    func attribute(_ name: String, of xpath: String, in document: XMLDocument) throws -> String? {
        try document.nodes(forXPath: "(\(xpath))[1]/@\(name)").first?.stringValue
    }

    @Test func aPNGCoverBecomesWebPTilesWithASrcsetAndAWarmBuildEncodesNothing() async throws {
        let site = try Fixture.site([Fixture.album("Wide", "Painter", cover: "covers/wide.png")])
        let png = try Thumbnailer.pattern(width: 900, height: 600, kind: .png)
        try Data(png).write(to: site.url.appending(path: "content/covers/wide.png"))

        let cold = try await GalleryBinary.run(["build", "--log-format", "json"], in: site.url)
        #expect(cold.status == 0, "\(cold.stderr)")
        #expect(try thumbnails(cold) == [3, 0])
        let covers = site.files(under: "public/covers")
        #expect(covers.count == 3, "\(covers)")
        for size in [100, 200, 300] {
            let name = try #require(covers.first { $0.hasSuffix("-\(size).webp") }, "no \(size) thumbnail in \(covers)")
            #expect(name.range(of: #"^[0-9a-f]{16}-\d+\.webp$"#, options: .regularExpression) != nil)
            let bytes = try [UInt8](Data(contentsOf: site.url.appending(path: "public/covers/\(name)")))
            #expect(ImageKind.sniff(bytes) == .webp)
            let (width, height) = try Thumbnailer.dimensions(of: bytes)
            #expect(width == size && height == size)
        }
        let tile = try #require(covers.first { $0.hasSuffix("-100.webp") })
        let retina = try #require(covers.first { $0.hasSuffix("-200.webp") })
        let large = try #require(covers.first { $0.hasSuffix("-300.webp") })

        let index = try XMLDocument(data: Data(try site.read("public/index.html").utf8))
        let tileImage = "//*[local-name()='li']//*[local-name()='img']"
        #expect(try attribute("src", of: tileImage, in: index) == "./covers/\(tile)")
        #expect(try attribute("srcset", of: tileImage, in: index) == "./covers/\(retina) 2x")
        #expect(try attribute("width", of: tileImage, in: index) == "100")
        #expect(try attribute("height", of: tileImage, in: index) == "100")
        let page = try XMLDocument(data: Data(try site.read("public/albums/painter-wide/index.html").utf8))
        let coverImage = "//*[local-name()='img'][@class='cover']"
        #expect(try attribute("src", of: coverImage, in: page) == "../../covers/\(large)")
        #expect(try attribute("width", of: coverImage, in: page) == "300")

        let warm = try await GalleryBinary.run(["build", "--log-format", "json"], in: site.url)
        #expect(warm.status == 0, "\(warm.stderr)")
        #expect(try thumbnails(warm) == [0, 3])
        #expect(site.files(under: "public/covers") == covers)

        // Other settings are other thumbnails; the cache still holds the first ones.
        try site.write("[thumbnails]\nformat = \"jpeg\"\nquality = 60\n", to: "gallery.toml")
        let jpeg = try await GalleryBinary.run(["build", "--log-format", "json"], in: site.url)
        #expect(jpeg.status == 0, "\(jpeg.stderr)")
        #expect(try thumbnails(jpeg) == [3, 0])
        let jpegs = site.files(under: "public/covers")
        #expect(jpegs.count == 3, "\(jpegs)")
        for name in jpegs {
            let bytes = try [UInt8](Data(contentsOf: site.url.appending(path: "public/covers/\(name)")))
            #expect(ImageKind.sniff(bytes) == .jpeg, "\(name)")
            let size = try #require(Int(name.dropFirst(17).prefix { $0.isNumber }), "\(name)")
            let (width, height) = try Thumbnailer.dimensions(of: bytes)
            #expect(name.hasSuffix(".jpg") && width == size && height == size, "\(name): \(width)×\(height)")
        }
        try site.write("", to: "gallery.toml")
        let back = try await GalleryBinary.run(["build", "--log-format", "json"], in: site.url)
        #expect(try thumbnails(back) == [0, 3])
        #expect(site.files(under: "public/covers") == covers)
    }

    @Test func eachCoverReportsItsThumbnails() async throws {
        let site = try Fixture.site([Fixture.album("A", "B"), Fixture.album("C", "D"), Fixture.album("E", "F", cover: "covers/copy.svg")])
        // Another URL with the same bytes (QA round 22): its event counts nothing, made or
        // cached, so the events add up to the summary.
        try FileManager.default.copyItem(at: site.url.appending(path: "content/covers/a.svg"), to: site.url.appending(path: "content/covers/copy.svg"))
        func thumbnailed(_ run: GalleryBinary.Run) throws -> [[Int]] {
            try run.stdout.split(separator: "\n").compactMap { line in
                let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                guard event["kind"] as? String == "thumbnailed" else { return nil }
                return [event["made"] as? Int ?? -1, event["cached"] as? Int ?? -1]
            }
        }
        // Both albums share the fixture's SVG cover: it is encoded once and reported once.
        let cold = try await GalleryBinary.run(["build", "--log-format", "json"], in: site.url)
        #expect(try thumbnailed(cold) == [[3, 0], [0, 0]])
        // The plan is logged (one distinct cover); each cover settling is for the console only.
        #expect(cold.stdout.contains("{\"event\":\"thumbnails_planned\",\"covers\":1}\n"), "\(cold.stdout)")
        #expect(!cold.stdout.contains("thumbnail_settled"))
        // Nothing changed: the build stops at its stamp and touches no cover. A touched cover is
        // read again, and its thumbnails come from the cache.
        #expect(try await thumbnailed(GalleryBinary.run(["build", "--log-format", "json"], in: site.url)) == [])
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: site.url.appending(path: "content/covers/a.svg").path)
        #expect(try await thumbnailed(GalleryBinary.run(["build", "--log-format", "json"], in: site.url)) == [[0, 3], [0, 0]])
    }

    @Test func aCorruptOrHugeCoverGetsThePlaceholderAndAWarning() async throws {
        let site = try Fixture.site([
            Fixture.album("Torn", "A", cover: "covers/torn.png"),
            Fixture.album("Bomb", "B", cover: "covers/bomb.png"),
            Fixture.album("Fine", "C"),
            // Albums sharing a cover that cannot be thumbnailed share one warning, as those of a
            // cover that cannot be had do (1,000 albums of one damaged JPEG were 1,000).
            Fixture.album("Torn Too", "D", cover: "covers/torn.png"),
            Fixture.album("Torn Again", "E", cover: "covers/torn.png"),
        ], config: "[thumbnails]\nmax_pixels = 100000\n")
        let small = try Thumbnailer.pattern(width: 300, height: 300, kind: .png)
        try Data(small.prefix(small.count / 2)).write(to: site.url.appending(path: "content/covers/torn.png"))
        let big = try Thumbnailer.pattern(width: 400, height: 400, kind: .png)
        try Data(big).write(to: site.url.appending(path: "content/covers/bomb.png"))

        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: 3 albums share this cover and show a placeholder: albums 1 (\"Torn\" by A), 4 (\"Torn Too\" by D) and 1 more (albums 1, 4–5): cover 'covers/torn.png': the image is damaged"), "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "covers/torn.png").count == 2, "\(run.stderr)")
        #expect(run.stderr.contains("warning: album 2 (\"Bomb\" by B) shows a placeholder: cover 'covers/bomb.png': the image is 400×400 pixels, more than [thumbnails] max_pixels (100000) allows"), "\(run.stderr)")
        let page = try site.read("public/albums/a-torn/index.html")
        #expect(page.range(of: #"src="../../assets/placeholder\.[0-9a-f]{10}\.svg""#, options: .regularExpression) != nil)

        let strict = try await GalleryBinary.run(["build", "--strict"], in: site.url)
        #expect(strict.status != 0)
        #expect(strict.stderr.contains("error: 3 albums share this cover and show a placeholder: albums 1 (\"Torn\" by A)"), "\(strict.stderr)")

        // A cover that is missing and ones that cannot be decoded are named in one --strict run:
        // it used to stop at the missing one, and name the others only once it was fixed.
        try site.write(Fixture.archive([
            Fixture.album("Torn", "A", cover: "covers/torn.png"),
            Fixture.album("Bomb", "B", cover: "covers/bomb.png"),
            Fixture.album("Lost", "D", cover: "covers/lost.png"),
        ]), to: "content/albums.json")
        let all = try await GalleryBinary.run(["build", "--strict"], in: site.url)
        #expect(all.status != 0)
        for title in ["Torn", "Bomb", "Lost"] {
            #expect(all.stderr.contains("\"\(title)\" by"), "\(title): \(all.stderr)")
        }
        #expect(all.stderr.contains("build failed in step 'fetch covers' with 3 errors"), "\(all.stderr)")
    }

    /// An SVG whose numbers overflow GObject's properties (a viewBox 100,000,000 wide) printed
    /// GLib's own warnings amid the build's output, naming no cover; the thumbnail is made.
    @Test func anSVGWithHugeNumbersPrintsNoLibraryWarnings() async throws {
        let site = try Fixture.site([Fixture.album("Vast", "A", cover: "covers/vast.svg")])
        try site.write(##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100000000 100000000"><rect width="100000000" height="100000000" fill="#c33"/></svg>"##, to: "content/covers/vast.svg")
        let run = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("GLib") && !run.stderr.contains("WARNING"), "\(run.stderr)")
        #expect(!site.files(under: "public/covers").isEmpty)
    }

    /// A lower `max_pixels` refuses covers whose thumbnails are already cached, as a cold build
    /// would: the same input gives the same site, and `--strict` the same verdict, whether or not
    /// CI restored the cache. A cache from before the covers' sizes were kept (no `.size` files)
    /// is checked too, from the covers' headers.
    @Test func aLowerPixelLimitRefusesCoversWhoseThumbnailsAreCached() async throws {
        let site = try Fixture.site([Fixture.album("Wide", "A", cover: "covers/wide.png"), Fixture.album("Small", "B", cover: "covers/small.png")])
        try Data(try Thumbnailer.pattern(width: 400, height: 300, kind: .png)).write(to: site.url.appending(path: "content/covers/wide.png"))
        try Data(try Thumbnailer.pattern(width: 200, height: 200, kind: .png)).write(to: site.url.appending(path: "content/covers/small.png"))
        let warm = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(warm.status == 0, "\(warm.stderr)")
        let sizes = site.files(under: ".gallery-cache/thumbnails").filter { $0.hasSuffix(".size") }
        #expect(sizes.count == 2, "\(sizes)")
        let refusal = "warning: album 1 (\"Wide\" by A) shows a placeholder: cover 'covers/wide.png': the image is 400×300 pixels, more than [thumbnails] max_pixels (100000) allows"
        try site.write("[thumbnails]\nmax_pixels = 100000\n", to: "gallery.toml")
        for round in ["sizes kept", "a cache without sizes"] {
            if round == "a cache without sizes" {
                for size in sizes { try FileManager.default.removeItem(at: site.url.appending(path: ".gallery-cache/thumbnails/\(size)")) }
            }
            let run = try await GalleryBinary.run(["build"], in: site.url)
            #expect(run.status == 0, "\(round): \(run.stderr)")
            #expect(run.stderr.contains(refusal), "\(round): \(run.stderr)")
            #expect(!run.stderr.contains("Small"), "\(round): \(run.stderr)")
            #expect(try site.read("public/albums/a-wide/index.html").contains("placeholder"), "\(round)")
            let strict = try await GalleryBinary.run(["build", "--strict"], in: site.url)
            #expect(strict.status != 0, "\(round)")
        }
        let cold = try site.read("public/index.html")
        try FileManager.default.removeItem(at: site.url.appending(path: ".gallery-cache"))
        #expect(try await GalleryBinary.run(["build", "-q", "--clean"], in: site.url).status == 0)
        #expect(try site.read("public/index.html") == cold)
    }

    /// Every file of a folder inside the site, by its path there.
    func contents(of site: TemporaryFolder, under path: String) throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for file in site.files(under: path) {
            contents[file] = try Data(contentsOf: site.url.appending(path: "\(path)/\(file)"))
        }
        return contents
    }

    /// A build after the tile size changed, with the cache of the build before, is the clean build
    /// of the new settings, byte for byte: each thumbnail is what its cache name says, whichever
    /// sizes the cache already held. (At 140 the 300 px image was cached and the 280 and 140 px
    /// ones were made from the cover; at 200 the 300 px one is resized from a 400 px one.)
    @Test(arguments: [(100, 140), (100, 103), (200, 100), (140, 200)])
    func aBuildAfterTheTileSizeChangedIsTheCleanBuild(before: Int, after: Int) async throws {
        let site = try Fixture.site([
            Fixture.album("Wide", "A", cover: "covers/wide.png"),
            Fixture.album("Tall", "B", cover: "covers/tall.jpg"),
            Fixture.album("Drawn", "C"),
        ])
        try Data(try Thumbnailer.pattern(width: 900, height: 600, kind: .png)).write(to: site.url.appending(path: "content/covers/wide.png"))
        try Data(try Thumbnailer.pattern(width: 700, height: 1000, kind: .jpeg)).write(to: site.url.appending(path: "content/covers/tall.jpg"))
        func build(_ dimension: Int) async throws {
            try site.write("[carousel]\ndimension = \(dimension)\n", to: "gallery.toml")
            let run = try await GalleryBinary.run(["build", "-q"], in: site.url)
            #expect(run.status == 0, "\(run.stderr)")
        }
        try await build(before)
        try await build(after)
        let incremental = try contents(of: site, under: "public")
        for folder in [".gallery-cache", "public"] {
            try FileManager.default.removeItem(at: site.url.appending(path: folder))
        }
        try await build(after)
        let clean = try contents(of: site, under: "public")
        #expect(incremental.count > 10 && incremental.keys.filter { $0.hasPrefix("covers/") }.count == 9, "\(incremental.keys.sorted())")
        #expect(incremental.keys.sorted() == clean.keys.sorted())
        let differing = clean.keys.filter { incremental[$0] != clean[$0] }.sorted()
        #expect(differing.isEmpty, "\(before) then \(after) differs from a clean build at \(after) in \(differing)")
    }

    /// `--gc` removes the cached thumbnails the build did not use (another tile size's, a
    /// removed cover's), keeps every one it used (the next build makes none), and a build
    /// without it removes nothing.
    @Test func gcRemovesOnlyTheThumbnailsTheBuildDidNotUse() async throws {
        let site = try Fixture.site([Fixture.album("One", "A", cover: "covers/one.png"), Fixture.album("Two", "B", cover: "covers/two.png")])
        try Data(try Thumbnailer.pattern(width: 320, height: 320, kind: .png)).write(to: site.url.appending(path: "content/covers/one.png"))
        try Data(try Thumbnailer.pattern(width: 300, height: 200, kind: .png)).write(to: site.url.appending(path: "content/covers/two.png"))
        let cached = { Set(site.files(under: ".gallery-cache/thumbnails")) }
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let first = cached()
        #expect(first.count == 2 * 4, "\(first.sorted())")
        // Another tile size and one cover fewer: without --gc the old files stay.
        try site.write("[carousel]\ndimension = 140\n", to: "gallery.toml")
        try site.write(Fixture.archive([Fixture.album("One", "A", cover: "covers/one.png")]), to: "content/albums.json")
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        #expect(cached().isSuperset(of: first))
        let run = try await GalleryBinary.run(["build", "--gc", "--log-format", "json"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        let kept = cached()
        // One cover: its 300 (shared with the first build), its 140-of300 and 280-of300, its size file.
        #expect(kept.count == 4, "\(kept.sorted())")
        #expect(kept.filter { $0.hasSuffix(".size") }.count == 1)
        #expect(kept.filter { $0.contains("-of300-") }.count == 2, "\(kept.sorted())")
        #expect(run.stdout.contains("\"thumbnails\":{\"made\":0,\"cached\":3,\"removed\":\(first.count + 2 - 4)}"), "\(run.stdout)")
        // Every thumbnail the site uses is still there: the next build makes none.
        let again = try await GalleryBinary.run(["build", "--clean", "--log-format", "json"], in: site.url)
        #expect(again.stdout.contains("\"thumbnails\":{\"made\":0,\"cached\":3,\"removed\":0}"), "\(again.stdout)")
        #expect(cached() == kept)
    }

    /// Runs `gallery build` with `GALLERY_LIBVIPS` naming a library that does not exist.
    func buildWithoutLibvips(_ site: TemporaryFolder, _ arguments: [String] = []) async throws -> GalleryBinary.Run {
        let process = Process()
        process.executableURL = GalleryBinary.url
        process.arguments = ["build"] + arguments
        process.currentDirectoryURL = site.url
        var environment = ProcessInfo.processInfo.environment
        environment["GALLERY_LIBVIPS"] = site.url.appending(path: "no-such-libvips.so").path
        process.environment = environment
        return try await GalleryBinary.captured(process)
    }

    /// libvips is opened when the first thumbnail is made, not linked: without it a cold build
    /// fails once, saying what to install, and a build whose thumbnails are cached needs none.
    @Test func withoutLibvipsAColdBuildFailsOnceAndACachedOneStillBuilds() async throws {
        let site = try Fixture.site([
            Fixture.album("One", "A", cover: "covers/one.png"),
            Fixture.album("Two", "B", cover: "covers/two.png"),
        ])
        try Data(try Thumbnailer.pattern(width: 300, height: 300, kind: .png)).write(to: site.url.appending(path: "content/covers/one.png"))
        try Data(try Thumbnailer.pattern(width: 200, height: 300, kind: .png)).write(to: site.url.appending(path: "content/covers/two.png"))

        let cold = try await buildWithoutLibvips(site)
        #expect(cold.status != 0)
        let errors = cold.stderr.split(separator: "\n").filter { $0.contains("error:") }
        #expect(errors.count == 1, "\(cold.stderr)")
        #expect(errors.first?.contains("cannot make thumbnails: cannot load libvips from GALLERY_LIBVIPS (\(site.url.path)/no-such-libvips.so)") == true, "\(cold.stderr)")
        #expect(errors.first?.contains("unset it to use the system's") == true, "\(cold.stderr)")
        #expect(!FileManager.default.fileExists(atPath: site.url.appending(path: "public").path), "nothing is written")

        let made = try await GalleryBinary.run(["build"], in: site.url)
        #expect(made.status == 0, "\(made.stderr)")
        let cached = try await buildWithoutLibvips(site, ["--clean"])
        #expect(cached.status == 0, "\(cached.stderr)")
        #expect(site.files(under: "public/covers").count == 6)
    }
}
