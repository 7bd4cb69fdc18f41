import Foundation
import FoundationXML
import Testing

/// `gallery build` run as a user runs it, on temporary sites, with the output inspected.
@Suite struct BuildCommandTests {
    /// Parses an output file as XML (every page is XHTML polyglot, so this must work).
    func xml(_ folder: TemporaryFolder, _ path: String) throws -> XMLDocument {
        try XMLDocument(data: Data(try folder.read(path).utf8))
    }

    func nodes(_ document: XMLDocument, _ xpath: String) throws -> [XMLNode] {
        try document.nodes(forXPath: xpath)
    }

    /// The string values of what an XPath selects (attributes included: `…/@style`).
    func values(_ document: XMLDocument, _ xpath: String) throws -> [String] {
        try document.nodes(forXPath: xpath).map { $0.stringValue ?? "" }
    }

    static let tile = "//*[local-name()='li'][contains(@class,'tile')]"

    @Test func buildsTheStarterSiteThatInitWrites() async throws {
        let folder = try TemporaryFolder()
        let initRun = try await GalleryBinary.run(["init", "mysite"], in: folder.url)
        #expect(initRun.status == 0, "\(initRun.stderr)")
        #expect(initRun.stdout.hasSuffix("Next: cd mysite && gallery build\n"), "\(initRun.stdout)")
        // The next step fits where the site is: no `cd .`, and a name with a space quoted.
        try FileManager.default.createDirectory(at: folder.url.appending(path: "here"), withIntermediateDirectories: true)
        #expect(try await GalleryBinary.run(["init", "."], in: folder.url.appending(path: "here")).stdout.hasSuffix("Next: gallery build\n"))
        #expect(try await GalleryBinary.run(["init", "my site"], in: folder.url).stdout.hasSuffix("Next: cd 'my site' && gallery build\n"))
        let site = folder.url.appending(path: "mysite")
        let run = try await GalleryBinary.run(["build"], in: site)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("[1/7] load"))
        #expect(run.stderr.contains("[7/7] write"))
        let files = folder.files(under: "mysite/public")
        for slug in ["david-bowie-best-of-bowie", "no-doubt-its-my-life", "sting-nothing-like-the-sun", "u2-staring-at-the-sun", "madonna-american-pie"] {
            #expect(files.contains("albums/\(slug)/index.html"))
        }
        for path in ["index.html", "404.html", "carousel.svg", "albums.json", "sitemap.xml"] {
            #expect(files.contains(path))
        }
        #expect(files.contains { $0.range(of: #"^assets/gallery\.[0-9a-f]{10}\.css$"#, options: .regularExpression) != nil })
        #expect(files.contains { $0.range(of: #"^assets/gallery\.[0-9a-f]{10}\.js$"#, options: .regularExpression) != nil })
        // Each of the five SVG covers becomes a tile, its 2× copy and the album page's image.
        let covers = files.filter { $0.hasPrefix("covers/") }
        #expect(covers.count == 15, "\(covers)")
        for size in [100, 200, 300] {
            #expect(covers.count { $0.hasSuffix("-\(size).webp") } == 5, "\(covers)")
        }

        let index = try xml(folder, "mysite/public/index.html")
        let lefts = try values(index, Self.tile + "/@style").map { $0.split(separator: ";").first.map(String.init) ?? "" }
        #expect(lefts == ["left:110px", "left:230px", "left:350px", "left:470px", "left:590px"])
        let rows = try nodes(index, "//*[local-name()='table'][@id='details']//*[local-name()='tr']")
        #expect(rows.map { $0.stringValue ?? "" } == ["ArtistDavid Bowie", "AlbumBest of Bowie", "GenrePop", "Year1992"])
        // The index is not the album's page: its tile is current, "true", not "page".
        #expect(try values(index, "//*[local-name()='a'][@aria-current='true']/@href") == ["./albums/david-bowie-best-of-bowie/"])
        #expect(try values(index, "//*[@aria-current='page']").isEmpty)
        let page = try xml(folder, "mysite/public/albums/u2-staring-at-the-sun/index.html")
        #expect(try values(page, "//*[local-name()='a'][@aria-current='page']/@href") == ["../../albums/u2-staring-at-the-sun/"])
        // Tiles are items of the strip's list, numbered for assistive technology.
        #expect(try values(index, Self.tile + "/@aria-posinset") == ["1", "2", "3", "4", "5"])
        #expect(try values(index, Self.tile + "/@aria-setsize") == Array(repeating: "5", count: 5))
        #expect(try values(index, Self.tile + "/@role").isEmpty)
    }


    /// A site's own stylesheets and scripts are published byte for byte: only the built-in ones
    /// are shrunk. A shrink by lines used to drop a rule written between two comments and a
    /// line inside a template literal.
    @Test func aSitesOwnAssetsArePublishedAsTheyAre() async throws {
        let site = try Fixture.site([Fixture.album("Blue", "Joni Mitchell")])
        let css = "/* price badge */ .price { color: #c0392b; font-weight: 700; } /* end badge */\n    .a { margin: 0 }\n"
        let js = "const cdn = `\n//cdn.example.com/x.js\n    indented\n`;\n// a comment\n"
        try site.write(css, to: "assets/theme.css")
        try site.write(js, to: "assets/shop.js")
        let run = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try site.read("public/assets/theme.css") == css)
        #expect(try site.read("public/assets/shop.js") == js)
        // The built-in script is still shrunk: no line of it starts with its indentation.
        let builtin = try #require(site.files(under: "public/assets").first { $0.hasPrefix("gallery.") && $0.hasSuffix(".js") })
        #expect(!(try site.read("public/assets/\(builtin)").contains("\n    ")))
    }
    @Test func svgStripUsesTheHTMLCoordinates() async throws {
        let site = try Fixture.site((0..<4).map { Fixture.album("T\($0)", "A") })
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let svg = try xml(site, "public/carousel.svg")
        #expect(try values(svg, "/*/@viewBox") == ["0 0 680 120"])
        let image = "//*[local-name()='image']"
        let xs = try values(svg, image + "/@x"), ys = try values(svg, image + "/@y")
        let widths = try values(svg, image + "/@width"), heights = try values(svg, image + "/@height")
        let html = try xml(site, "public/index.html")
        let styles = try values(html, Self.tile + "/@style")
        let imageWidths = try values(html, Self.tile + "//*[local-name()='img']/@width")
        let imageHeights = try values(html, Self.tile + "//*[local-name()='img']/@height")
        #expect(xs.count == 4 && styles.count == 4)
        for index in styles.indices {
            #expect(styles[index] == "left:\(xs[index])px;top:\(ys[index])px")
            #expect(imageWidths[index] == widths[index] && imageHeights[index] == heights[index])
        }
        #expect(xs == ["110", "230", "350", "470"])
    }

    @Test func albumPagesCarryAWindowAtTruePositions() async throws {
        let albums = (0..<10).map { Fixture.album("Title \($0)", "Artist") }
        let site = try Fixture.site(albums, config: "[carousel]\nwindow = 2\n")
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let page = try xml(site, "public/albums/artist-title-5/index.html")
        #expect(try values(page, Self.tile + "/@data-index") == ["3", "4", "5", "6", "7"])
        #expect(try values(page, Self.tile + "[3]/@style").first?.hasPrefix("left:\(110 + 5 * 120)px") == true)
        #expect(try values(page, "//*[local-name()='ol']/@style") == ["width:\(200 + 10 * 120)px;height:120px;--tile:100px;--pad:10px"])
        let links = "//*[local-name()='nav'][@class='album-nav']/*[local-name()='a']"
        #expect(try values(page, links + "/@href") == ["../../albums/artist-title-4/", "../../albums/artist-title-6/"])
        #expect(try values(page, links + "/@rel") == ["prev", "next"])
    }

    @Test func largeIndexesAreSplitIntoPages() async throws {
        let site = try Fixture.site((0..<5).map { Fixture.album("T\($0)", "A") }, config: "[carousel]\nindex_page_size = 2\ninitial_album = 4\n")
        let build = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(build.status == 0)
        // The home page cannot open on an album of another index page: said, with what to do.
        #expect(build.stderr == "gallery.toml:3:1: warning: [carousel] initial_album is album 4, which is on index page 2 (page/2/index.html), not on the home page, which opens on album 1; raise index_page_size to 4 or more, or choose an album from 1 to 2\n")
        #expect(site.exists("public/page/2/index.html") && site.exists("public/page/3/index.html"))
        #expect(!site.exists("public/page/4/index.html"))
        // A number past the last album is taken as the last, and the warning says what was written.
        try site.write("[carousel]\nindex_page_size = 2\ninitial_album = 99\n", to: "gallery.toml")
        let past = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(past.stderr == "gallery.toml:3:1: warning: [carousel] initial_album is 99, past the last album, so album 5, which is on index page 3 (page/3/index.html), not on the home page, which opens on album 1; raise index_page_size to 5 or more, or choose an album from 1 to 2\n", "\(past.stderr)")
        try site.write("[carousel]\nindex_page_size = 2\ninitial_album = 4\n", to: "gallery.toml")
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let second = try xml(site, "public/page/2/index.html")
        #expect(try values(second, Self.tile + "/@data-index") == ["2", "3"])
        #expect(try values(second, "//*[local-name()='a'][@aria-current='true']/@href") == ["../../albums/a-t3/"])
        #expect(try values(second, "//*[local-name()='nav'][@class='pager']/*[local-name()='a']/@href") == ["../../", "../../page/3/"])
    }

    @Test func initialAlbumIsConfigurableAndClamped() async throws {
        let site = try Fixture.site((0..<3).map { Fixture.album("T\($0)", "A") }, config: "[carousel]\ninitial_album = 99\n")
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let index = try xml(site, "public/index.html")
        #expect(try values(index, "//*[@id='carousel']/@data-current") == ["2"])
        #expect(try nodes(index, "//*[@data-field='title']").first?.stringValue == "T2")
        // A slug that names no album is warned about, not silently taken for the first.
        try site.write("[carousel]\ninitial_album = \"a-t9\"\n", to: "gallery.toml")
        let unknown = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(unknown.status == 0)
        #expect(unknown.stderr.contains("gallery.toml:2:1: warning: [carousel] initial_album is \"a-t9\", which is no album's slug, so the index opens on the first album; `gallery list` shows the slugs"), "\(unknown.stderr)")
        // A number in quotes is a slug to TOML: said how to write the number.
        try site.write("[carousel]\ninitial_album = \"2\"\n", to: "gallery.toml")
        let quoted = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(quoted.stderr.contains("gallery.toml:2:1: warning: [carousel] initial_album is \"2\", which is no album's slug, so the index opens on the first album; write it without quotes (initial_album = 2) to mean album 2"), "\(quoted.stderr)")
        try site.write("[carousel]\ninitial_album = \"a-t1\"\n", to: "gallery.toml")
        let known = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(known.stderr.isEmpty, "\(known.stderr)")
        #expect(try values(try xml(site, "public/index.html"), "//*[@id='carousel']/@data-current") == ["1"])
    }

    @Test func hostileTextIsEscapedInEveryOutput() async throws {
        let hostile = "<script>alert(1)</script> AT&T \"quoted\" 'single' 🎸 مرحبا"
        let site = try Fixture.site([Fixture.album(hostile, "Artist & <b>Co</b>", slug: "hostile"), Fixture.album("B", "C")])
        let run = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        for path in ["public/index.html", "public/albums/hostile/index.html", "public/albums/c-b/index.html", "public/carousel.svg", "public/sitemap.xml"] {
            let text = try site.read(path)
            #expect(!text.contains("<script>"), "\(path) carries a raw script tag")
            #expect(!text.contains("<b>"), "\(path) carries raw markup from the archive")
            _ = try xml(site, path)
        }
        let page = try xml(site, "public/albums/hostile/index.html")
        #expect(try nodes(page, "//*[@data-field='title']").first?.stringValue == hostile)
        #expect(try nodes(page, "//*[@data-field='artist']").first?.stringValue == "Artist & <b>Co</b>")
        let data = try JSONSerialization.jsonObject(with: Data(try site.read("public/albums.json").utf8)) as? [String: Any]
        let first = (data?["albums"] as? [[String: Any]])?.first
        #expect(first?["title"] as? String == hostile)
        #expect(!(try site.read("public/albums.json")).contains("<"))
        let svg = try xml(site, "public/carousel.svg")
        #expect(try nodes(svg, "//*[local-name()='a']/*[local-name()='title']").first?.stringValue == hostile + " by Artist & <b>Co</b>")
    }

    /// Album text is escaped even where a template writes it with triple braces or `&`: a
    /// supplier's title with a script in it ran in visitors' browsers, and the README promised
    /// that album text is always escaped. The analytics provider's own inline script is still
    /// written as it is.
    @Test func tripleBracesDoNotUnescapeAlbumText() async throws {
        let site = try Fixture.site([Fixture.album("x", "A")])
        try site.write(#"""
            {"version": 1, "albums": [{"title": "Best of <script>document.title=\"PWNED\"</script>", "artist": "A <b>Co</b>", "genre": "Pop", "year": 2000,
              "cover_url": "covers/a.svg", "slug": "hostile", "params": {"note": "<img src=\"x\" alt=\"\" onerror=\"alert(1)\"/>"}}]}
            """#, to: "content/albums.json")
        try site.write("""
            {{<base}}
            {{$content}}
            <h1>{{{album.title}}} {{&album.artist}} {{{album.params.note}}}</h1>
            {{/content}}
            {{/base}}
            """, to: "templates/album.mustache")
        try site.write("[analytics]\nprovider = \"google\"\nid = \"G-ABC123\"\n", to: "gallery.toml")
        let run = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        let page = try site.read("public/albums/hostile/index.html")
        #expect(!page.contains("<script>document"), "\(page)")
        #expect(!page.contains("<b>") && !page.contains("<img src=\"x\""), "\(page)")
        #expect(page.contains("<h1>Best of &lt;script&gt;document.title=&quot;PWNED&quot;&lt;/script&gt; A &lt;b&gt;Co&lt;/b&gt; &lt;img"), "\(page)")
        #expect(page.contains("gtag('config', 'G-ABC123')") || page.contains("gtag(\"config\", \"G-ABC123\")"), "the provider's script is markup: \(page)")
    }

    /// `album` is absent on the 404 page, as the README says: a `{{#album}}` in the base layout
    /// showed the first album there (and went stale, as the 404 page's key has no album in it).
    @Test func theNotFoundPageHasNoAlbum() async throws {
        let site = try Fixture.site([Fixture.album("Blue", "Joni Mitchell", slug: "blue")])
        let base = try String(contentsOf: AnalyticsBuildTests.package.appending(path: "templates/base.mustache"), encoding: .utf8)
        try site.write(base.replacingOccurrences(of: "</body>", with: "{{#album}}<p class=\"now\">Now showing: {{album.title}}</p>{{/album}}\n</body>"), to: "templates/base.mustache")
        let run = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try site.read("public/index.html").contains("Now showing: Blue"))
        #expect(!(try site.read("public/404.html")).contains("Now showing"))
    }

    @Test func aBrokenArchiveFailsAndLeavesTheSiteAsItWas() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let before = try site.read("public/index.html")
        try site.write("{\"version\": 1, \"albums\": [\n  {\"title\": \"A\", \"artist\": \"B\", \"genre\": \"Pop\", \"year\": \"soon\", \"cover_url\": \"c\"}\n]}\n", to: "content/albums.json")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("content/albums.json:2:57: error: album 1 (\"A\"): \"year\" must be a number, not a string"))
        #expect(run.stderr.contains("build failed in step 'load'"))
        #expect(try site.read("public/index.html") == before)
        #expect(!site.exists(".public.staging"))
    }

    /// A first build (no cache yet) starts loading libvips while it reads the archive; one whose
    /// archive is refused must still exit 1, every time: exiting while libvips loaded aborted
    /// about one such build in fifteen with "double free or corruption".
    @Test func aFirstBuildRefusedInItsLoadStepExitsCleanlyEveryTime() async throws {
        let site = try Fixture.site([Fixture.album("A", "B", slug: "same"), Fixture.album("C", "D", slug: "same")])
        var statuses: [Int32: Int] = [:]
        for _ in 0..<40 {
            try? FileManager.default.removeItem(at: site.url.appending(path: ".gallery-cache"))
            let run = try await GalleryBinary.run(["build", "-q"], in: site.url)
            statuses[run.status, default: 0] += 1
            if run.status != 1 { Issue.record("exit \(run.status): \(run.stderr.suffix(300))") }
        }
        #expect(statuses == [1: 40])
    }

    /// An archive deleted by mistake: its backup is named, not `gallery init` (which would
    /// start the site over).
    @Test func aDeletedArchiveWithABackupNamesTheBackup() async throws {
        let folder = try Fixture.site([Fixture.album("A", "B")])
        #expect(try await GalleryBinary.run(["add", "--title", "C", "--artist", "D", "--genre", "Pop", "--year", "2001", "--cover", "covers/c.svg"], in: folder.url).status == 0)
        try FileManager.default.removeItem(at: folder.url.appending(path: "content/albums.json"))
        let run = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("content/albums.json: error: there is no album archive here, but its backup content/albums.json.bak is: if the archive was deleted or moved by mistake, put it back, or copy the backup (the archive as the last library command found it) to content/albums.json\n"), "\(run.stderr)")
        #expect(!run.stderr.contains("gallery init"))
    }

    @Test func aFolderWithoutAnArchiveSuggestsInit() async throws {
        let folder = try TemporaryFolder()
        let run = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("content/albums.json: error: there is no album archive here; run `gallery init DIR`"))
        // --site naming no folder, or a file, says so rather than "no archive here".
        let nowhere = try await GalleryBinary.run(["build", "--site", "nope"], in: folder.url)
        #expect(nowhere.stderr.contains("nope/content/albums.json: error: the site folder nope does not exist; check the path, or create a site there with `gallery init nope`"), "\(nowhere.stderr)")
        try folder.write("x", to: "afile")
        let file = try await GalleryBinary.run(["build", "--site", "afile"], in: folder.url)
        #expect(file.stderr.contains("error: afile is a file, not a site folder; name the folder that holds content/albums.json"), "\(file.stderr)")
        // Also where the output folder it would hold is one no build may write (a file in
        // /etc): the output folder was blamed.
        let system = try await GalleryBinary.run(["build", "--site", "/etc/hostname"], in: folder.url)
        #expect(system.stderr.contains("error: /etc/hostname is a file, not a site folder"), "\(system.stderr)")
        #expect(!system.stderr.contains("the output folder is inside"), "\(system.stderr)")
        // Run inside a site's content/, it names the site above.
        #expect(try await GalleryBinary.run(["init", "shop"], in: folder.url).status == 0)
        let inside = try await GalleryBinary.run(["build"], in: folder.url.appending(path: "shop/content"))
        #expect(inside.status != 0)
        #expect(inside.stderr.contains("error: there is no album archive here, but .. is a site: this is its content/ folder; run gallery there, or pass --site .."), "\(inside.stderr)")
        // An archive that is a link to nothing says so.
        try FileManager.default.createDirectory(at: folder.url.appending(path: "linked/content"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.url.appending(path: "linked/content/albums.json").path, withDestinationPath: "../../shared/albums.json")
        let dangling = try await GalleryBinary.run(["build", "--site", "linked"], in: folder.url)
        #expect(dangling.stderr.contains("linked/content/albums.json: error: this is a symbolic link to ../../shared/albums.json, which does not exist"), "\(dangling.stderr)")
    }

    @Test func aTemplateThatDoesNotParseIsNamedWithItsPosition() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write("<p>\n{{#album}}{{title}}\n</p>\n", to: "templates/partials/details.mustache")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("templates/partials/details.mustache:2:1: error: template 'partials/details' does not parse: 'album' is never closed; add {{/album}}"))
        #expect(!site.exists("public"))
    }

    @Test func aMissingCoverIsAPlaceholderAndAWarningOrWithStrictAnError() async throws {
        let site = try Fixture.site([Fixture.album("Gone", "Nobody", cover: "covers/missing.png"), Fixture.album("Here", "Somebody")])
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status == 0)
        #expect(run.stderr.contains("content/albums.json:2:1: warning: album 1 (\"Gone\" by Nobody) shows a placeholder: cover 'covers/missing.png': no such file"))
        let page = try site.read("public/albums/nobody-gone/index.html")
        #expect(page.range(of: #"src="../../assets/placeholder\.[0-9a-f]{10}\.svg""#, options: .regularExpression) != nil)
        let strict = try await GalleryBinary.run(["build", "--strict", "--output", "strict-out"], in: site.url)
        #expect(strict.status != 0)
        #expect(strict.stderr.contains("error: album 1 (\"Gone\" by Nobody) shows a placeholder"))
        #expect(!site.exists("strict-out"))
    }

    /// Albums that share a cover that cannot be used share one warning that names them all, so
    /// a back catalogue's "artwork coming soon" is one line, not one per album.
    @Test func albumsSharingAFailedCoverShareOneWarning() async throws {
        let soon = "covers/soon.jpg"
        let albums = [Fixture.album("A1", "X", cover: soon), Fixture.album("Here", "Y"), Fixture.album("A2", "X", cover: soon),
                      Fixture.album("A3", "X", cover: soon), Fixture.album("A4", "X", cover: soon), Fixture.album("Gone", "Z", cover: "covers/gone.png")]
        let site = try Fixture.site(albums)
        let run = try await GalleryBinary.run(["build", "--log-format", "json"], in: site.url)
        #expect(run.status == 0)
        let events = try run.stdout.split(separator: "\n").compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let warnings = events.filter { $0["event"] as? String == "diagnostic" }.compactMap { $0["message"] as? String }
        #expect(warnings == [
            "4 albums share this cover and show a placeholder: albums 1 (\"A1\" by X), 3 (\"A2\" by X) and 2 more (albums 1, 3–5): cover 'covers/soon.jpg': no such file (content/covers/soon.jpg); check the path, which is relative to content/",
            "album 6 (\"Gone\" by Z) shows a placeholder: cover 'covers/gone.png': no such file (content/covers/gone.png); check the path, which is relative to content/",
        ], "\(warnings)")
        #expect((events.last?["covers"] as? [String: Any])?["failed"] as? Int == 5)
    }

    /// Hugo's flags, as a script moved from Hugo passes them, get gallery's way (not "Unknown
    /// option", nor a wrong guess: --bind had "did you mean --site?"), and build nothing; they
    /// stay out of the help.
    /// A slip in the command's name is told with the command meant, and Hugo's commands with
    /// gallery's (`gallery biuld` said "Unexpected argument", `gallery bulid --clean` blamed
    /// `--clean`, and `gallery help nosuch` printed the help with status 0).
    @Test(arguments: [
        (["biuld"], "error: 'biuld' is no gallery command; did you mean 'build'?\n"),
        (["bulid", "--clean"], "error: 'bulid' is no gallery command; did you mean 'build'?\n"),
        (["Serve"], "error: 'Serve' is no gallery command; did you mean 'serve'?\n"),
        (["help", "nosuch"], "error: 'nosuch' is no gallery command; gallery --help lists the commands\n"),
        (["server"], "error: gallery server is Hugo's name: write gallery serve\n"),
        (["new", "site", "x"], "error: gallery new is Hugo's: gallery init DIR makes a new site; gallery add adds an album\n"),
        (["version"], "error: gallery version is Hugo's: write gallery --version\n"),
    ])
    func anUnknownCommandIsToldWhatToWrite(arguments: [String], said: String) async throws {
        let folder = try TemporaryFolder()
        let run = try await GalleryBinary.run(arguments, in: folder.url)
        #expect(run.status == 64)
        #expect(run.stderr == said)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test func hugosFlagsAreAnsweredWithGallerysWay() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        let cases: [([String], String)] = [
            (["build", "--cleanDestinationDir"], "--cleanDestinationDir is Hugo's name: write --clean-destination"),
            (["build", "-d", "out"], "--destination (-d) is Hugo's name: write --output DIR"),
            (["build", "--baseURL", "/x/"], "--baseURL (-b) is Hugo's name: gallery build takes --base-url URL"),
            (["build", "--minify", "--gc"], "--minify: gallery writes pages as the templates make them"),
            (["build", "-D"], "--buildDrafts (-D): gallery has no drafts"),
            (["serve", "--bind", "127.0.0.1"], "--bind is Hugo's name: write --host ADDRESS"),
            (["serve", "--navigateToChanged"], "--navigateToChanged: gallery serve has none"),
        ]
        for (arguments, advice) in cases {
            let run = try await GalleryBinary.run(arguments, in: site.url)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.contains("Error: " + advice), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("Did you mean"), "\(arguments): \(run.stderr)")
        }
        #expect(!site.exists("public") && !site.exists("out"))
        let help = try await GalleryBinary.run(["build", "--help"], in: site.url)
        #expect(!help.stdout.contains("baseURL") && !help.stdout.contains("minify"), "\(help.stdout)")
    }

    @Test func aFolderNamedLikeATemplateAndContradictoryFlagsAreToldPlainly() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try FileManager.default.createDirectory(at: site.url.appending(path: "templates/index.mustache"), withIntermediateDirectories: true)
        let folder = try await GalleryBinary.run(["build"], in: site.url)
        #expect(folder.status != 0)
        #expect(folder.stderr.contains("templates/index.mustache: error: this is a folder, not a template file; rename it"), "\(folder.stderr)")
        try FileManager.default.removeItem(at: site.url.appending(path: "templates/index.mustache"))
        let flags = try await GalleryBinary.run(["build", "-q", "-v"], in: site.url)
        #expect(flags.status != 0)
        #expect(flags.stderr.contains("--quiet and --verbose contradict each other; choose one."))
        #expect(!site.exists("public"))
    }

    @Test func aMisspeltTemplateNameIsAWarningWithItsLineOrWithStrictAnError() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write("<table class=\"details\" id=\"details\">\n<tr><th>Artist</th><td>{{album.artsit}}</td></tr>\n</table>\n", to: "templates/partials/details.mustache")
        try site.write("<p>unused</p>\n", to: "templates/footer.mustache")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("templates/partials/details.mustache:2:24: warning: 'album.artsit': no value is called 'artsit' there, so it renders empty; did you mean 'artist'?"), "\(run.stderr)")
        #expect(run.stderr.contains("templates/footer.mustache: warning: no page uses a template named 'footer', so this file changes nothing"), "\(run.stderr)")
        let strict = try await GalleryBinary.run(["build", "--strict", "--output", "strict-out"], in: site.url)
        #expect(strict.status != 0)
        #expect(!site.exists("strict-out"))
        // Fixed, the build is quiet again.
        try site.write("<table class=\"details\" id=\"details\">\n<tr><th>Artist</th><td>{{album.artist}}</td></tr>\n</table>\n", to: "templates/partials/details.mustache")
        try FileManager.default.removeItem(at: site.url.appending(path: "templates/footer.mustache"))
        let fixed = try await GalleryBinary.run(["build", "--strict", "-q"], in: site.url)
        #expect(fixed.status == 0 && fixed.stderr.isEmpty, "\(fixed.stderr)")
    }

    @Test func coversThatLeaveTheSiteFolderAreRefused() async throws {
        let outside = try TemporaryFolder()
        try outside.write(Fixture.cover, to: "secret.svg")
        let site = try Fixture.site([
            Fixture.album("Up", "A", cover: "../../\(outside.url.lastPathComponent)/secret.svg"),
            Fixture.album("Abs", "A", cover: outside.url.appending(path: "secret.svg").path),
            Fixture.album("Scheme", "A", cover: "ftp://example.org/x.png"),
        ])
        try FileManager.default.createSymbolicLink(at: site.url.appending(path: "content/link.svg"), withDestinationURL: outside.url.appending(path: "secret.svg"))
        try site.write(Fixture.archive([
            Fixture.album("Up", "A", cover: "../../\(outside.url.lastPathComponent)/secret.svg"),
            Fixture.album("Abs", "A", cover: outside.url.appending(path: "secret.svg").path),
            Fixture.album("Scheme", "A", cover: "ftp://example.org/x.png"),
            Fixture.album("Link", "A", cover: "link.svg"),
            Fixture.album("Folder", "A", cover: "covers/"),
            Fixture.album("NoSlashes", "A", cover: "file:covers/a.svg"),
            Fixture.album("Port", "A", cover: "http://127.0.0.1:99999/x.png"),
        ]), to: "content/albums.json")
        try FileManager.default.createDirectory(at: site.url.appending(path: "content/covers"), withIntermediateDirectories: true)
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status == 0)
        #expect(run.stderr.contains("album 1 (\"Up\" by A) shows a placeholder: cover '../../"))
        #expect(run.stderr.contains("leads outside the site folder"))
        #expect(run.stderr.contains("album 2 (\"Abs\" by A) shows a placeholder: cover '/"))
        #expect(run.stderr.contains("absolute paths are refused"))
        #expect(run.stderr.contains("album 3 (\"Scheme\" by A) shows a placeholder: cover 'ftp://example.org/x.png': the scheme 'ftp:' is not supported"))
        #expect(run.stderr.contains("album 4 (\"Link\" by A) shows a placeholder: cover 'link.svg': the cover path leads outside the site folder"))
        #expect(run.stderr.contains("album 5 (\"Folder\" by A) shows a placeholder: cover 'covers/': content/covers is a folder, not an image; name the image file in it"), "\(run.stderr)")
        #expect(run.stderr.contains("album 6 (\"NoSlashes\" by A) shows a placeholder: cover 'file:covers/a.svg': 'file:covers/a.svg' is not a file URL; write file:///path/inside/the/site (three slashes), or the path relative to content/ without file:"), "\(run.stderr)")
        #expect(run.stderr.contains("album 7 (\"Port\" by A) shows a placeholder: cover 'http://127.0.0.1:99999/x.png': 'http://127.0.0.1:99999/x.png' names port 99999, but ports run from 1 to 65535"), "\(run.stderr)")
        #expect(site.files(under: "public/covers").isEmpty)
    }

    /// Local covers that are not image files are each told by what they are: a named pipe was
    /// "Input/output error; check its permissions", a link to itself and a name whose accent
    /// is written another way in Unicode were "a name that differs in case", and a 1.5 GB file
    /// was read whole (3 GB of memory) before it was found to be no image.
    @Test func oddLocalCoverFilesAreEachToldForWhatTheyAre() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        let covers = site.url.appending(path: "content/covers")
        try FileManager.default.createDirectory(at: covers, withIntermediateDirectories: true)
        #expect(mkfifo(covers.appending(path: "pipe.png").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: covers.appending(path: "loop.png").path, withDestinationPath: "loop.png")
        try FileManager.default.createSymbolicLink(atPath: covers.appending(path: "dangling.svg").path, withDestinationPath: "does-not-exist.svg")
        try site.write(Fixture.cover, to: "content/covers/caf\u{E9}.svg")
        let huge = open(covers.appending(path: "huge.jpg").path, O_WRONLY | O_CREAT, 0o644)
        #expect(huge >= 0 && ftruncate(huge, 300 << 20) == 0)
        close(huge)
        try site.write(Fixture.archive([
            Fixture.album("Pipe", "A", cover: "covers/pipe.png"),
            Fixture.album("Loop", "A", cover: "covers/loop.png"),
            Fixture.album("Accent", "A", cover: "covers/cafe\u{301}.svg"),
            Fixture.album("Huge", "A", cover: "covers/huge.jpg"),
            Fixture.album("Dangling", "A", cover: "covers/dangling.svg"),
        ]), to: "content/albums.json")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("album 1 (\"Pipe\" by A) shows a placeholder: cover 'covers/pipe.png': content/covers/pipe.png is a named pipe, not an image file; name an image file"), "\(run.stderr)")
        #expect(run.stderr.contains("album 2 (\"Loop\" by A) shows a placeholder: cover 'covers/loop.png': content/covers/loop.png is a symbolic link that leads back to itself; point it at the image"), "\(run.stderr)")
        #expect(run.stderr.contains("the same name with its accents written another way in Unicode"), "\(run.stderr)")
        #expect(!run.stderr.contains("differs in case"), "\(run.stderr)")
        #expect(run.stderr.contains("album 4 (\"Huge\" by A) shows a placeholder: cover 'covers/huge.jpg': content/covers/huge.jpg is 300 MB, more than a cover can be (at most 256 MB); use a smaller image"), "\(run.stderr)")
        // A link to nothing was given the Unicode hint (a QA pass): its name is found as itself.
        #expect(run.stderr.contains("album 5 (\"Dangling\" by A) shows a placeholder: cover 'covers/dangling.svg': no such file (content/covers/dangling.svg); dangling.svg is a symbolic link to does-not-exist.svg, which does not exist: point it at the image, or copy the image in its place\n"), "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "accents written another way").count == 2, "\(run.stderr)")
    }

    @Test func siteAndOutputFlagsWorkFromAnyDirectory() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        let elsewhere = try TemporaryFolder()
        let run = try await GalleryBinary.run(["build", "-q", "--site", site.url.path, "--output", "out"], in: elsewhere.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(elsewhere.exists("out/index.html"))
        #expect(!site.exists("public"))
    }

    /// A site kept in git tracks its sources only: nothing a build, the cache or the library
    /// commands write shows up in `git status`.
    @Test func aStarterSiteInGitTracksOnlyItsSources() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        let site = folder.url.appending(path: "site")
        #expect(try folder.read("site/.gitignore").contains("/public/"))
        #expect(try await git(["init", "-q"], in: site).status == 0)
        #expect(try await GalleryBinary.run(["build", "-q"], in: site).status == 0)
        let add = try await GalleryBinary.run(["add", "--title", "T", "--artist", "A", "--genre", "G", "--year", "2001", "--cover", "covers/none.png"], in: site)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try await GalleryBinary.run(["build", "-q"], in: site).status == 0)
        #expect(try await GalleryBinary.run(["undo"], in: site).status == 0)
        // What a killed writer leaves beside the archive.
        try folder.write("{", to: "site/content/.albums.json.tmp-999-1")
        #expect(folder.exists("site/public/index.html"))
        #expect(folder.exists("site/.gallery-cache"))
        #expect(folder.exists("site/content/.albums.json.history"))
        let status = try await git(["status", "--porcelain", "--untracked-files=all"], in: site)
        #expect(status.status == 0, "\(status.stderr)")
        let tracked = status.stdout.split(separator: "\n").map { $0.dropFirst(3) }.sorted()
        let sources = [".gitignore", "content/albums.json", "gallery.toml"]
        #expect(tracked.filter { !$0.hasPrefix("content/covers/") } == sources.map { Substring($0) }, "\(tracked)")
        #expect(tracked.count { $0.hasPrefix("content/covers/") } == 5, "\(tracked)")
    }

    private func git(_ arguments: [String], in directory: URL) async throws -> GalleryBinary.Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        return try await GalleryBinary.captured(process)
    }

    @Test func initRefusesAFolderThatIsNotEmpty() async throws {
        let folder = try TemporaryFolder()
        try folder.write("x", to: "taken/file.txt")
        let run = try await GalleryBinary.run(["init", "taken"], in: folder.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("taken: error: this folder already exists and is not empty (it holds file.txt); choose a new folder name, or one that holds only a repository's .git, .gitignore, .github, README and licence"), "\(run.stderr)")
        // An empty argument (a variable never set) is said to be empty, not taken for ".".
        let empty = try await GalleryBinary.run(["init", ""], in: folder.url)
        #expect(empty.status != 0)
        #expect(empty.stderr.contains("DIR is empty; name the folder to create (gallery init mysite), or . for the current one."), "\(empty.stderr)")
        // A place that cannot be written gets the system's reason, not Foundation's error dump.
        let below = try await GalleryBinary.run(["init", "taken/file.txt/site"], in: folder.url)
        #expect(below.status != 0)
        #expect(below.stderr == "taken/file.txt/site: error: cannot write the starter site: Not a directory; choose a folder you can write to\n", "\(below.stderr)")
    }

    /// A repository made first (`git init`; a clone of a new GitHub repository, with its README
    /// and licence) takes the starter site, and keeps what it held.
    @Test func initWritesIntoARepositoryThatHoldsOnlyItsOwnFiles() async throws {
        let folder = try TemporaryFolder()
        try folder.write("ref: refs/heads/main\n", to: "repo/.git/HEAD")
        try folder.write("# My albums\n", to: "repo/README.md")
        try folder.write("MIT\n", to: "repo/LICENSE")
        let run = try await GalleryBinary.run(["init", "repo"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(folder.exists("repo/content/albums.json") && folder.exists("repo/gallery.toml") && folder.exists("repo/.gitignore"))
        #expect(try folder.read("repo/README.md") == "# My albums\n")
        #expect(try folder.read("repo/.git/HEAD") == "ref: refs/heads/main\n")
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url.appending(path: "repo")).status == 0)
        // GitHub's form offers a .gitignore, and a repository may hold workflows: its own
        // .gitignore keeps its lines and gets the starter's it lacks (it was refused).
        try folder.write("*.log\n/public/\n", to: "other/.gitignore")
        try folder.write("on: push\n", to: "other/.github/workflows/ci.yml")
        try folder.write("ref: refs/heads/main\n", to: "other/.git/HEAD")
        let added = try await GalleryBinary.run(["init", "other"], in: folder.url)
        #expect(added.status == 0, "\(added.stderr)")
        let ignore = try folder.read("other/.gitignore")
        #expect(ignore.hasPrefix("*.log\n/public/\n\n# gallery: "), "\(ignore)")
        #expect(ignore.contains("\n/.gallery-cache/\n") && ignore.components(separatedBy: "/public/").count == 2, "\(ignore)")
        #expect(try folder.read("other/.github/workflows/ci.yml") == "on: push\n")
        // Anything else is still refused.
        try folder.write("x\n", to: "third/notes.txt")
        try folder.write("*.log\n", to: "third/.gitignore")
        let refused = try await GalleryBinary.run(["init", "third"], in: folder.url)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("(it holds notes.txt)"), "\(refused.stderr)")
        #expect(try folder.read("third/.gitignore") == "*.log\n")
    }

    @Test func sitemapListsEveryPageUnderTheBaseURL() async throws {
        let site = try Fixture.site([Fixture.album("A", "B"), Fixture.album("C", "D")], config: "base_url = \"https://example.org/music\"\n")
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let sitemap = try xml(site, "public/sitemap.xml")
        let locations = try nodes(sitemap, "//*[local-name()='loc']").map { $0.stringValue ?? "" }
        #expect(locations == ["https://example.org/music/", "https://example.org/music/albums/b-a/", "https://example.org/music/albums/d-c/"])
        let notFound = try site.read("public/404.html")
        #expect(notFound.contains("href=\"/music/assets/gallery."))
        #expect(try site.read("public/albums/b-a/index.html").contains("<link rel=\"canonical\" href=\"https://example.org/music/albums/b-a/\"/>"))
    }

    /// A base URL as a browser's address bar shows it, its path percent-encoded, failed every
    /// build: the 404 page's links, decoded to be checked, were all "outside the site's base
    /// path" as written.
    @Test(arguments: ["https://example.org/caf%C3%A9/", "/a%20b/"])
    func aPercentEncodedBasePathBuilds(baseURL: String) async throws {
        let site = try Fixture.site([Fixture.album("A", "B")], config: "base_url = \"\(baseURL)\"\n")
        let build = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(build.status == 0, "\(build.stderr)")
        let path = try #require(URL(string: baseURL)?.path(percentEncoded: true))
        #expect(try site.read("public/404.html").contains("href=\"\(path)assets/gallery."))
        #expect(try await GalleryBinary.run(["check", "-q"], in: site.url).status == 0)
    }

    /// A strip wider than browsers lay out (Firefox 17,895,697 px) had its tiles past that drawn
    /// on top of each other at its end, without a word: a warning names the first such album.
    /// (Wide tiles and padding make it a strip of 900 albums, not of 150,000.)
    @Test func aStripWiderThanBrowsersLayOutIsWarnedOf() async throws {
        let site = try Fixture.site((1...900).map { Fixture.album("T\($0)", "A") }, config: "[carousel]\npadding = 10000\ndimension = 1024\noffset = 0\n")
        let build = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(build.status == 0, "\(build.stderr)")
        // Tile i's right edge is 10000 + 21024·i + 1024; past 17,895,697 from i = 851 on.
        #expect(build.stderr.contains("gallery.toml:3:1: warning: [carousel] the strip is 18921600 px wide, more than browsers lay out (Firefox 17895697 px, Chrome 33554428 px): from album 852 on, tiles are drawn on top of each other at the strip's end; make the tiles smaller ([carousel] dimension and padding)"), "\(build.stderr)")
        // Past it only by the space after the last tile (846 albums: the last tile's right
        // edge is 17,876,304 px), nothing is drawn wrong, and nothing is said.
        try site.write(Fixture.archive((1...846).map { Fixture.album("T\($0)", "A") }), to: "content/albums.json")
        try site.write("[carousel]\npadding = 10000\ndimension = 1024\noffset = 100000\n", to: "gallery.toml")
        let fits = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(fits.status == 0 && !fits.stderr.contains("the strip is"), "\(fits.stderr)")
        try site.write("[carousel]\npadding = 10\n", to: "gallery.toml")
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).stderr == "")
    }

    /// A base URL written as people read it (`/música/`) is published percent-encoded: its raw
    /// path was in the sitemap, which the protocol forbids, and `gallery serve` compared it with
    /// the encoded path browsers ask for, so it served nothing.
    @Test func aBasePathInOtherLettersIsPublishedEncoded() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")], config: "base_url = \"https://example.org/música/\"\n")
        let build = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(build.status == 0, "\(build.stderr)")
        let locations = try nodes(try xml(site, "public/sitemap.xml"), "//*[local-name()='loc']").map { $0.stringValue ?? "" }
        #expect(locations == ["https://example.org/m%C3%BAsica/", "https://example.org/m%C3%BAsica/albums/b-a/"])
        #expect(try site.read("public/404.html").contains("href=\"/m%C3%BAsica/assets/gallery."))
        #expect(try await GalleryBinary.run(["check", "-q"], in: site.url).status == 0)
    }

    @Test func aBaseURLThatIsNoAddressIsRefusedFromTheCommandLineToo() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        // A usage error (64), as `gallery check --base-url` gives, before anything is done: it
        // was a failed build (1) after the load step, with a JSON summary.
        let run = try await GalleryBinary.run(["build", "--base-url", "javascript:alert(1)", "--log-format", "json"], in: site.url)
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("Error: --base-url \"javascript:alert(1)\" is neither a URL nor a path that starts with /"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(!site.exists("public"))
        // An empty one is likelier a CI variable never set than a wish for relative links.
        for empty in [["--base-url", ""], ["--base-url="]] {
            let refused = try await GalleryBinary.run(["build"] + empty, in: site.url)
            #expect(refused.status == 64)
            #expect(refused.stderr.contains("--base-url is empty (a variable that is not set?); give the site's address") || refused.stderr.contains("Missing value for '--base-url"), "\(refused.stderr)")
        }
        #expect(!site.exists("public"))
    }

    @Test func sharedLinksPreviewTheAlbumWithACoverThatIsInTheSite() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        let site = folder.url.appending(path: "site")
        let run = try await GalleryBinary.run(["build", "-q", "--base-url", "https://example.org/music/"], in: site)
        #expect(run.status == 0, "\(run.stderr)")
        let page = try xml(folder, "site/public/albums/sting-nothing-like-the-sun/index.html")
        let property = { (name: String) throws -> [String] in
            try self.values(page, "//*[local-name()='meta'][@property='\(name)']/@content")
        }
        #expect(try property("og:type") == ["music.album"])
        #expect(try property("og:title") == ["Nothing Like The Sun"])
        #expect(try property("og:description") == ["Sting · Pop · 1999"])
        let canonical = try values(page, "//*[local-name()='link'][@rel='canonical']/@href")
        #expect(try property("og:url") == canonical && canonical == ["https://example.org/music/albums/sting-nothing-like-the-sun/"])
        // The preview's image is the album page's own cover, at its address under the base URL.
        let image = try #require(try property("og:image").first)
        #expect(image.hasPrefix("https://example.org/music/covers/") && image.hasSuffix("-300.webp"), "\(image)")
        let cover = try values(page, "//*[local-name()='img'][@class='cover']/@src")
        #expect(cover == ["../../" + image.dropFirst("https://example.org/music/".count)])
        #expect(folder.exists("site/public/" + image.dropFirst("https://example.org/music/".count)))
        #expect(try property("og:image:width") == ["300"])
        let index = try xml(folder, "site/public/index.html")
        #expect(try values(index, "//*[local-name()='meta'][@property='og:type']/@content") == ["website"])
        // Without an absolute base URL there is nothing to point a preview at.
        #expect(try await GalleryBinary.run(["build", "-q"], in: site).status == 0)
        #expect(try !folder.read("site/public/albums/sting-nothing-like-the-sun/index.html").contains("og:"))
    }
}

/// Validation as the user meets it: a template that writes broken markup, and `gallery check`.
@Suite struct ValidationCommandTests {
    @Test func brokenMarkupFromATemplateFailsTheBuildAndNamesTheTemplate() async throws {
        let site = try Fixture.site([Fixture.album("A", "B"), Fixture.album("C", "D")])
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let before = site.files(under: "public")
        let pageBefore = try site.read("public/index.html")
        try site.write("<table class=\"details\" id=\"details\"><caption>{{album.title}}<br></caption></table>\n", to: "templates/partials/details.mustache")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        // The line leads with the template, where the fix goes: the page that was not written
        // (public/ keeps the last good build) follows, with the line and column as rendered.
        let finding = try #require(run.stderr.split(separator: "\n").first { $0.contains("tag mismatch") }, "\(run.stderr)")
        #expect(finding.hasPrefix("templates/partials/details.mustache:1: error: Opening and ending tag mismatch: br line "), "\(finding)")
        #expect(finding.contains(" (public/index.html:"), "\(finding)")
        #expect(finding.hasSuffix(" and 2 other pages, not written)"), "\(finding)")
        // The fix follows libxml2's message, and the mismatches that the open <br> caused at
        // </table>, </main>, </body> and </html> are not reported.
        #expect(run.stderr.contains("and caption; void elements must close themselves in XHTML: <br/>"), "\(run.stderr)")
        #expect(run.stderr.contains("build failed in step 'validate' with 1 error;"), "\(run.stderr)")
        #expect(site.files(under: "public") == before)
        #expect(try site.read("public/index.html") == pageBefore)
        #expect(!site.exists(".public.staging"))
    }

    @Test func brokenLinksAndMissingAltTextAreFoundInTemplates() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write("{{<base}}{{$content}}<p><img src=\"{{root}}nowhere.png\"/><a href=\"{{root}}albums/missing/\">x</a></p>{{/content}}{{/base}}\n", to: "templates/404.mustache")
        let run = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("templates/404.mustache:1: error:"), "\(run.stderr)")
        #expect(run.stderr.contains("(public/404.html:17:4, not written)"), "\(run.stderr)")
        #expect(run.stderr.contains("nowhere.png"))
        #expect(run.stderr.contains("alt"))
        #expect(run.stderr.contains("albums/missing/"))
        // In the JSON log, the template's file and line come apart too, for a CI annotation.
        let json = try await GalleryBinary.run(["build", "--log-format", "json"], in: site.url)
        let finding = try #require(json.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .first { $0["event"] as? String == "diagnostic" && $0["severity"] as? String == "error" }, "\(json.stdout)")
        #expect(finding["template"] as? String == "templates/404.mustache:1", "\(finding)")
        #expect(finding["template_file"] as? String == "templates/404.mustache" && finding["template_line"] as? Int == 1, "\(finding)")
        #expect(finding["path"] as? String == "public/404.html", "\(finding)")
    }

    /// A browser reads the pages as HTML, where `<IMG>` is an image, `<A HREF>` a link and `ID`
    /// an id: written with capitals they got past the checks for alt, links and unique ids.
    @Test func namesWithCapitalsFailTheBuildAndTheCheck() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let base = try String(contentsOf: package.appending(path: "templates/base.mustache"), encoding: .utf8)
        try site.write(base.replacingOccurrences(of: "<main id=\"main\">", with: "<IMG src=\"{{root}}img/logo.png\"/><A HREF=\"{{root}}nope.html\">x</A><DIV ID=\"main\">y</DIV>\n<main id=\"main\">"), to: "templates/base.mustache")
        let run = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("error: element <IMG> must be written in lowercase in XHTML: <img>"), "\(run.stderr)")
        #expect(run.stderr.contains("error: element <A HREF> must be written in lowercase in XHTML: <a href>"), "\(run.stderr)")
        #expect(run.stderr.contains("error: element <DIV ID> must be written in lowercase in XHTML: <div id>"), "\(run.stderr)")
        #expect(run.stderr.contains("templates/base.mustache:29: error: element <IMG>"), "\(run.stderr)")

        let page = try site.read("public/index.html")
        try site.write(page.replacingOccurrences(of: "<h1", with: "<H1").replacingOccurrences(of: "</h1>", with: "</H1>"), to: "public/index.html")
        let check = try await GalleryBinary.run(["check"], in: site.url)
        #expect(check.status != 0)
        #expect(check.stderr.contains("public/index.html:"), "\(check.stderr)")
        #expect(check.stderr.contains("error: element <H1> must be written in lowercase in XHTML: <h1>"), "\(check.stderr)")
    }

    /// A site with no albums yet (a catalogue about to be imported) builds a valid site that
    /// says so, and builds again.
    @Test func aSiteWithNoAlbumsBuilds() async throws {
        let site = try Fixture.site([])
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try site.read("public/index.html").contains("<p class=\"empty\">There are no albums here yet.</p>"))
        #expect(try await GalleryBinary.run(["check"], in: site.url).status == 0)
        #expect(try await GalleryBinary.run(["build", "--clean"], in: site.url).status == 0)
    }

    /// A `templates/` that is a symbolic link (to a theme several sites share) is read where it
    /// leads; it used to be skipped without a word, by build and serve alike.
    @Test func aLinkedTemplatesFolderIsRead() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let album = try String(contentsOf: package.appending(path: "templates/album.mustache"), encoding: .utf8)
        try site.write(album.replacingOccurrences(of: "<h1>", with: "<h1 class=\"from-the-theme\">"), to: "theme/templates/album.mustache")
        try FileManager.default.createSymbolicLink(atPath: site.url.appending(path: "templates").path, withDestinationPath: "theme/templates")
        let run = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try site.read("public/albums/b-a/index.html").contains("<h1 class=\"from-the-theme\">"))
    }

    @Test func checkValidatesAnExistingOutputFolder() async throws {
        let site = try Fixture.site([Fixture.album("A", "B"), Fixture.album("C", "D")])
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let good = try await GalleryBinary.run(["check"], in: site.url)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stderr.isEmpty)
        let files = site.files(under: "public")
        let pages = files.count { $0.hasSuffix(".html") }
        #expect(good.stdout == "checked public: \(pages) pages and \(files.count - pages) other files, no findings\n", "\(good.stdout)")
        #expect(try await GalleryBinary.run(["check", "-q"], in: site.url).stdout.isEmpty)
        // A folder inside the output has every link out of it climb above it: ten of those
        // show it, and one line says which folder to check.
        let inside = try await GalleryBinary.run(["check", "public/albums"], in: site.url)
        #expect(inside.status != 0)
        let climbs = inside.stderr.split(separator: "\n").filter { $0.hasSuffix("climbs above the output root") }
        #expect(climbs.count == 10, "\(inside.stderr)")
        #expect(inside.stderr.contains("more links climb above public/albums the same way; is it a folder inside the site? Check the folder the site was built into (`gallery check public`)\n"), "\(inside.stderr)")
        let page = try site.read("public/albums/b-a/index.html")
        try site.write(page.replacingOccurrences(of: "<h1>", with: "<h1 id=\"main\">"), to: "public/albums/b-a/index.html")
        try FileManager.default.removeItem(at: site.url.appending(path: "public/carousel.svg"))
        let bad = try await GalleryBinary.run(["check", "public"], in: site.url)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("public/albums/b-a/index.html:18:1: error: duplicate id 'main'"), "\(bad.stderr)")
        #expect(bad.stderr.contains("main"))
        #expect(bad.stderr.contains("carousel.svg"))
        #expect(bad.stderr.hasSuffix(" findings in public\n"), "\(bad.stderr)")
        // -q prints the findings and nothing else, as it says.
        let quiet = try await GalleryBinary.run(["check", "-q", "public"], in: site.url)
        #expect(quiet.status != 0)
        #expect(quiet.stderr.split(separator: "\n").allSatisfy { $0.contains(": error: ") || $0.contains(": warning: ") }, "\(quiet.stderr)")
        #expect(quiet.stderr.contains("duplicate id 'main'"))
        let missing = try await GalleryBinary.run(["check", "nothing-here"], in: site.url)
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("nothing-here"))
    }
}
