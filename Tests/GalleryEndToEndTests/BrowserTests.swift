import Foundation
import Testing

/// The carousel in headless Chromium, driven through WebDriver by Tests/Browser/carousel.py,
/// against a site served by `gallery serve`. Screenshots at 320 px and 1280 px wide are kept in
/// `.build/browser-artifacts/`.
///
/// One Chromium at a time: on a two-core machine four at once, beside the rest of the suite,
/// kept the cover server's tests from seeing its port within their 20 seconds.
@Suite(.serialized) struct BrowserTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// 40 albums with covers of their own (so each image loads on its own) but album 38, whose
    /// cover is missing (a placeholder) and which has no price, album 39 with a right-to-left
    /// title, album 6 an artist of two spaces in a row; album pages carrying ±5 neighbours and index pages 20,
    /// so the script has to fetch the rest of the strip from the data files; the words the
    /// script writes in German.
    func site() throws -> TemporaryFolder {
        let albums = (1...40).map { number in
            // Album 39's names are Arabic, with a closing "!" that must stay at their left end.
            // Album 6's artist has two spaces in a row, which a page's title shows as one.
            Fixture.album(number == 39 ? "يا حبيبي!" : String(format: "Album %02d", number), number == 39 ? "عمرو دياب" : number == 6 ? "Artist  06" : String(format: "Artist %02d", number), year: 1980 + number, cover: number == 38 ? "covers/missing.svg" : String(format: "covers/c%02d.svg", number))
        }
        // Every album but 38 has a price of its own (params), which a details row shows.
        let priced = albums.enumerated().map { index, album in
            index == 37 ? album : album.replacingOccurrences(of: "}", with: #", "params": {"price": "\#(index + 10),00 €"}}"#)
        }
        // Its words in German ([text]), as carousel.py expects them where the script writes them.
        let words = """
        [carousel]
        window = 5
        index_page_size = 20

        [text]
        by = "von"
        album_by = "{title} von {artist}"
        cover_of = "Plattencover: {title} von {artist}"
        no_cover_for = "Kein Cover: {title} von {artist}"
        status = "Album {number} von {count}: {title} von {artist} ({year})"

        """
        let site = try Fixture.site(priced, config: words)
        let details = try String(contentsOf: Self.package.appending(path: "templates/partials/details.mustache"), encoding: .utf8)
        try site.write(details.replacingOccurrences(of: "</tbody>", with: "<tr><th scope=\"row\">Price</th><td data-field=\"price\">{{album.params.price}}</td></tr>\n</tbody>"), to: "templates/partials/details.mustache")
        for number in 1...40 {
            let hue = number * 9
            let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100"><rect width="100" height="100" fill="hsl(\(hue),60%,55%)"/><text x="50" y="62" font-size="32" font-family="sans-serif" text-anchor="middle">\(number)</text></svg>
            """
            try site.write(svg, to: String(format: "content/covers/c%02d.svg", number))
        }
        return site
    }

    /// Runs a check script of Tests/Browser with `arguments`, and expects every one of its
    /// `count` checks to have run and passed: a script that stopped early must not look like a
    /// pass.
    func expectBrowserChecks(_ script: String, _ arguments: [String], count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.package.appending(path: "Tests/Browser/\(script)").path] + arguments
        let run = try await GalleryBinary.captured(process)
        let checks = run.stdout.split(separator: "\n")
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr.suffix(4000))", sourceLocation: sourceLocation)
        #expect(checks.count == count && checks.allSatisfy { $0.hasPrefix("ok ") }, "\(run.stdout)", sourceLocation: sourceLocation)
    }

    @Test func theCarouselBehavesInARealBrowser() async throws {
        let site = try site()
        let server = try await ServeProcess(in: site.url)
        let artifacts = Self.package.appending(path: ".build/browser-artifacts", directoryHint: .isDirectory)
        try await expectBrowserChecks("carousel.py", [server.url, artifacts.path], count: 25)
        for width in [320, 1280] {
            #expect(FileManager.default.fileExists(atPath: artifacts.appending(path: "index-\(width).png").path))
        }
    }

    /// The findings of a WCAG 2.2 AA audit of the carousel script, each a check of
    /// Tests/Browser/a11y.py in a real browser on the site of ``site()``: the tiles the script
    /// adds keep the list in album order; the focus stays in the strip and moves with the selection;
    /// the status line speaks once a selection has come to rest, and only what is not said already;
    /// prefers-reduced-motion is followed when it changes on an open page; a far jump on a slow
    /// network leaves the focus on no tile scrolled away, and Enter opens the selected album;
    /// the strip is one Tab stop; its keys are described only when the script runs; without the
    /// script a link skips the strip's tiles.
    @Test func theCarouselScriptPassesItsAccessibilityAudit() async throws {
        let site = try site()
        let server = try await ServeProcess(in: site.url)
        try await expectBrowserChecks("a11y.py", [server.url], count: 9)
    }

    /// A designer's templates in a real browser (Tests/Browser/designer.py): a tile partial with a
    /// `<figure>`, a caption and the artist in `data-field` elements, a price badge and a star,
    /// whose tiles the script must copy as it draws the strip, with each album's own words; and
    /// an album page title of the site's own format, which the page must follow through the
    /// carousel's `data-title` pattern; and a shop link and a head tag of the album page's own,
    /// which the page takes from the selected album's page. 60 albums (all with covers of their own; album 38
    /// without a price), index pages of 20 and album pages of ±5 neighbours, so most tiles are
    /// the script's, and the page's are taken away and drawn again.
    @Test func aDesignersTilesAndTitleFollowTheStrip() async throws {
        let albums = (1...60).map { number in
            Fixture.album(String(format: "Album %02d", number), String(format: "Artist %02d", number), year: 1960 + number, cover: String(format: "covers/c%02d.svg", number))
        }
        let priced = albums.enumerated().map { index, album in
            index == 37 ? album : album.replacingOccurrences(of: "}", with: #", "params": {"price": "\#(index + 10) €"}}"#)
        }
        let site = try Fixture.site(priced, config: "title = \"Plattenladen\"\n\n[carousel]\nwindow = 5\nindex_page_size = 20\n")
        for number in 1...60 {
            try site.write("""
            <svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100"><rect width="100" height="100" fill="hsl(\(number * 6),60%,55%)"/></svg>
            """, to: String(format: "content/covers/c%02d.svg", number))
        }
        let tile = """
        <li class="tile tile-card{{#current}} current{{/current}}" style="left:{{x}}px;top:{{y}}px" data-index="{{index}}" aria-posinset="{{number}}" aria-setsize="{{count}}"><a href="{{href}}"{{#current}} aria-current="{{#ownPage}}page{{/ownPage}}{{^ownPage}}true{{/ownPage}}"{{/current}}><figure class="tile-figure"><img src="{{src}}"{{#srcset}} srcset="{{srcset}}"{{/srcset}} width="{{width}}" height="{{height}}" alt="{{alt}}"{{#lazy}} loading="lazy"{{/lazy}}/><figcaption><span class="tile-caption" data-field="title">{{title}}</span> <small class="tile-artist" data-field="artist">{{artist}}</small></figcaption></figure><span class="tile-price" data-field="price">{{params.price}}</span><span class="tile-badge" aria-hidden="true">★</span></a></li>
        """
        try site.write(tile, to: "templates/partials/tile.mustache")
        let album = try String(contentsOf: Self.package.appending(path: "templates/album.mustache"), encoding: .utf8)
        let title = "{{$title}}{{album.title}} · {{album.artist}} · {{site.title}}{{/title}}"
        #expect(album.contains(title))
        // Spaced as a browser's document.title is not: it trims and joins runs of spaces.
        // A shop link from a param (album 38 has none) and a head tag of the album's own, which
        // the page must take from the selected album's page as the selection moves.
        let shop = "{{#album.params.price}}<p class=\"shop\"><a class=\"buy\" href=\"https://shop.example/{{album.slug}}\">Buy {{album.title}} for {{album.params.price}}</a></p>{{/album.params.price}}\n<nav class=\"album-nav\""
        #expect(album.contains("<nav class=\"album-nav\""))
        try site.write(album.replacingOccurrences(of: title, with: "{{$title}}\n  {{album.artist}} – {{album.title}}  |  {{site.title}}\n{{/title}}\n{{$head}}<meta name=\"album\" content=\"{{album.slug}}\"/>{{/head}}")
            .replacingOccurrences(of: "<nav class=\"album-nav\"", with: shop), to: "templates/album.mustache")
        let carousel = try String(contentsOf: Self.package.appending(path: "templates/partials/carousel.mustache"), encoding: .utf8)
        #expect(carousel.contains(" data-status="))
        try site.write(carousel.replacingOccurrences(of: " data-status=", with: " data-title=\"{artist} – {title} | {{site.title}}\" data-status="), to: "templates/partials/carousel.mustache")
        // Every name the templates use is a value (`artist` and `params` of a tile too).
        let build = try await GalleryBinary.run(["build", "-q", "--strict"], in: site.url)
        #expect(build.status == 0 && build.stderr.isEmpty, "\(build.stderr)")
        let server = try await ServeProcess(in: site.url)
        try await expectBrowserChecks("designer.py", [server.url], count: 6)
    }

    /// The `[analytics]` scripts run in a real browser: a self-hosted GoatCounter on loopback is
    /// told of each page visited, and Google's snippet queues its configuration, while the
    /// page's own script still takes over the carousel (Tests/Browser/analytics.py builds the
    /// site once per provider and serves it); and a carousel partial that renames the script's
    /// hooks leaves a working page, not a script error.
    @Test func analyticsScriptsRunInARealBrowser() async throws {
        let site = try Fixture.site((1...3).map { Fixture.album("Album \($0)", "Artist") })
        try await expectBrowserChecks("analytics.py", [GalleryBinary.url.path, site.url.path], count: 3)
    }

    /// `gallery serve`'s live reload in a real browser, as a person previewing a site sees it:
    /// Tests/Browser/serve.py starts the server, opens tabs, edits the site and restarts the
    /// server. Each check names what it proves; the error overlay's screenshot at 320 px is kept
    /// in `.build/browser-artifacts/`.
    @Test func liveReloadWorksInARealBrowser() async throws {
        let site = try Fixture.site([
            Fixture.album("Blue", "Joni Mitchell", year: 1971, slug: "blue"),
            Fixture.album("Hejira", "Joni Mitchell", year: 1976, slug: "hejira"),
            Fixture.album("Court and Spark", "Joni Mitchell", year: 1974, slug: "court-and-spark"),
        ])
        try await expectBrowserChecks("serve.py", [GalleryBinary.url.path, site.url.path, Self.package.appending(path: ".build/browser-artifacts").path], count: 6)
    }
}
