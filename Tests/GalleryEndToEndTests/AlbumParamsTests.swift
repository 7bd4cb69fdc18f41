import Foundation
import Testing

/// An album's own fields (`"params"`, as Hugo's `.Params`): a shop's price and condition,
/// shown by the site's templates and given to scripts in the data files.
@Suite struct AlbumParamsTests {
    func site(price: (Int) -> String) throws -> TemporaryFolder {
        let albums = (0..<12).map { number in
            Fixture.album(String(format: "Title %02d", number), "Artist").replacingOccurrences(of: "}", with: #", "params": {"price": "\#(price(number))", "stock": \#(number % 3), "sealed": \#(number % 2 == 0), "weight": 0.50}}"#)
        }
        let folder = try Fixture.site(albums, config: "[carousel]\nwindow = 2\nindex_page_size = 10\n")
        try folder.write("""
            {{<base}}
            {{$content}}
            <h1 data-field="title">{{album.title}}</h1>
            <p class="price">Price: <span data-field="price">{{album.params.price}}</span>{{#album.params.sealed}} (sealed){{/album.params.sealed}}{{album.params.colour}}</p>
            {{>partials/carousel}}
            {{>partials/details}}
            {{/content}}
            {{/base}}

            """, to: "templates/album.mustache")
        return folder
    }

    @Test func aTemplateShowsThemAndAChangeRebuildsOnlyTheAlbumsPage() async throws {
        let folder = try site { "\($0 + 10),00 € <mint>" }
        let first = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(first.status == 0, "\(first.stderr)")
        // No warning: params are known, and a name no album has (colour) renders as nothing.
        #expect(!first.stderr.contains("warning"), "\(first.stderr)")
        let page = try folder.read("public/albums/artist-title-04/index.html")
        #expect(page.contains(#"<p class="price">Price: <span data-field="price">14,00 € &lt;mint&gt;</span> (sealed)</p>"#), "\(page)")
        #expect(try folder.read("public/albums/artist-title-05/index.html").contains(#"15,00 € &lt;mint&gt;</span></p>"#))
        let data = try folder.read("public/data/albums-0.json")
        // A number a script would show otherwise than the page (0.50 as 0.5) is given as text.
        #expect(data.contains(#""params":{"price":"14,00 € \u003cmint\u003e","stock":1,"sealed":true,"weight":"0.50"}"#), "\(data.prefix(600))")
        #expect(try folder.read("public/albums.json").contains(#""params":{"price":"10,00 € \u003cmint\u003e","stock":0,"sealed":true,"weight":"0.50"}"#))

        // A new price for album 5 re-renders its page and the data files, not its neighbours'.
        let before = try folder.inodes()
        let archive = try folder.read("content/albums.json")
        try folder.write(archive.replacingOccurrences(of: #""price": "14,00 € <mint>""#, with: #""price": "9,99 €""#), to: "content/albums.json")
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        #expect(TemporaryFolder.changed(before, try folder.inodes()) == ["albums/artist-title-04/index.html", "albums.json", "data/albums-0.json"])
        #expect(try folder.read("public/albums/artist-title-04/index.html").contains(#"<span data-field="price">9,99 €</span>"#))
    }
}

/// A tile that shows its album's params (a price badge) is kept current on every page whose
/// strip shows it: a new price for one album used to leave its neighbours' pages, and the index,
/// showing the old one.
@Suite struct TileParamsTests {
    @Test func aNewPriceReachesEveryStripThatShowsIt() async throws {
        let albums = (0..<6).map { number in
            Fixture.album("Title \(number)", "Artist").replacingOccurrences(of: "}", with: #", "params": {"price": "\#(number + 10) €"}}"#)
        }
        let folder = try Fixture.site(albums, config: "[carousel]\nwindow = 2\n")
        let tile = try String(contentsOf: AnalyticsBuildTests.package.appending(path: "templates/partials/tile.mustache"), encoding: .utf8)
        try folder.write(tile.replacingOccurrences(of: "</a>", with: "<span class=\"badge\" data-field=\"price\">{{params.price}}</span></a>"), to: "templates/partials/tile.mustache")
        let first = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try folder.read("public/albums/artist-title-1/index.html").contains(">12 €</span>"))
        let archive = try folder.read("content/albums.json")
        try folder.write(archive.replacingOccurrences(of: "12 €", with: "9 €"), to: "content/albums.json")
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        // Album 3's page and its neighbours within the window of 2, and the index.
        for path in ["public/index.html", "public/albums/artist-title-0/index.html", "public/albums/artist-title-1/index.html", "public/albums/artist-title-2/index.html", "public/albums/artist-title-3/index.html", "public/albums/artist-title-4/index.html"] {
            let page = try folder.read(path)
            #expect(page.contains(">9 €</span>") && !page.contains(">12 €</span>"), "\(path) shows the old price")
        }
    }
}

/// The site's own values (`[params]`, as Hugo's `.Site.Params`) and which page a template is
/// rendering (`isIndex`, `isAlbum`, `isNotFound`): a designer's footer and nav.
@Suite struct SiteParamsTests {
    @Test func templatesShowTheSitesParamsAndKnowWhichPageTheyRender() async throws {
        let folder = try Fixture.site([Fixture.album("Blue", "Joni Mitchell", slug: "blue")], config: """
            [params]
            phone = "+49 30 <1234567>"
            since = 1998
            open_sundays = false
            rating = 4.5

            """)
        let base = try String(contentsOf: AnalyticsBuildTests.package.appending(path: "templates/base.mustache"), encoding: .utf8)
        try folder.write(base.replacingOccurrences(of: "</body>", with: """
            <footer class="shop">Call {{site.params.phone}} · since {{site.params.since}} · {{site.params.rating}}{{#site.params.open_sundays}} · open on Sundays{{/site.params.open_sundays}}{{site.params.fax}}</footer>
            <nav class="kind">{{#isIndex}}index{{/isIndex}}{{#isAlbum}}album{{/isAlbum}}{{#isNotFound}}404{{/isNotFound}}</nav>
            </body>
            """), to: "templates/base.mustache")
        let run = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("warning"), "a name [params] does not have renders as nothing: \(run.stderr)")
        for (path, kind) in [("public/index.html", "index"), ("public/albums/blue/index.html", "album"), ("public/404.html", "404")] {
            let page = try folder.read(path)
            #expect(page.contains("<footer class=\"shop\">Call +49 30 &lt;1234567&gt; · since 1998 · 4.5</footer>"), "\(path): \(page)")
            #expect(page.contains("<nav class=\"kind\">\(kind)</nav>"), "\(path)")
        }
        // A new value rewrites the pages that show it.
        try folder.write("[params]\nphone = \"+49 30 7654321\"\nsince = 1998\nopen_sundays = true\nrating = 4.5\n", to: "gallery.toml")
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        #expect(try folder.read("public/albums/blue/index.html").contains("Call +49 30 7654321 · since 1998 · 4.5 · open on Sundays</footer>"))
        // Values a template cannot show are errors at their line.
        try folder.write("[params]\nopening = 09:00:00\n\"two words\" = 1\n", to: "gallery.toml")
        let bad = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("gallery.toml:2:1: error: [params] opening must be a string in quotes, a number or true/false; a template shows it as {{site.params.opening}}"), "\(bad.stderr)")
        #expect(bad.stderr.contains("error: \"two words\" cannot name a param"), "\(bad.stderr)")
    }
}

/// Own fields through the library commands: `--param` on add and edit, `--map COLUMN=params.NAME`
/// on import, and `import --update` taking a new price.
@Suite struct AlbumParamsCommandTests: StarterSiteTests {
    func params(_ folder: TemporaryFolder) throws -> [String] {
        try folder.read("site/content/albums.json").split(separator: "\n").filter { $0.contains("\"params\"") }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func editSetsAndRemovesThemTyped() async throws {
        let folder = try await starter()
        // Whole numbers are numbers; 12.50 stays as written, as a script would show 12.5.
        let edit = try await run(["edit", "2", "--param", "price=12.50", "--param", "sealed=true", "--param", "catalogue=007", "--param", "note=Near Mint", "--param", "stock=3"], folder)
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(try params(folder) == [#""params": {"price":"12.50","sealed":true,"catalogue":"007","note":"Near Mint","stock":3}"#])
        #expect(try await run(["edit", "2", "--param", "sealed=", "--param", "price=10"], folder).status == 0)
        #expect(try params(folder) == [#""params": {"price":10,"catalogue":"007","note":"Near Mint","stock":3}"#])
        #expect(try await run(["edit", "2", "--param", "price=1", "--param", "price=2"], folder).stderr.contains("--param price is given twice; keep one"))
        #expect(try await run(["edit", "2", "--param", "note=a\u{202E}b"], folder).stderr.contains("--param note: the value contains U+202E RIGHT-TO-LEFT OVERRIDE"))
        let bad = try await run(["edit", "2", "--param", "in stock=1"], folder)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains(#""in stock" cannot name a param"#), "\(bad.stderr)")
        #expect(try await run(["edit", "2", "--param", "price"], folder).stderr.contains("write NAME=VALUE"))
        // A value over the limit is named, not quoted whole (ArgumentParser's message quoted
        // all 20,001 characters).
        let long = try await run(["edit", "2", "--param", "note=" + String(repeating: "x", count: 20_001)], folder)
        #expect(long.status != 0)
        #expect(long.stderr.hasPrefix("Error: --param note: the value is 20001 characters long; at most 20000"), "\(long.stderr.prefix(300))")
        #expect(long.stderr.utf8.count < 1000, "\(long.stderr.utf8.count) bytes")
        // Undo takes each edit back, down to no params at all.
        #expect(try await run(["undo"], folder).status == 0)
        #expect(try await run(["undo"], folder).status == 0)
        #expect(try params(folder).isEmpty)
    }

    @Test func importReadsThemFromMappedColumnsAndUpdateTakesNewValues() async throws {
        let folder = try await starter()
        try folder.write("""
            Title,Artist,Genre,Year,Cover,Preis,Zustand
            Best of Bowie,David Bowie,Pop,1992,covers/best-of-bowie.svg,"12,50 €",VG+
            New One,Someone,Rock,2001,covers/its-my-life.svg,9.99,

            """, to: "in.csv")
        let wrong = try await run(["import", "in.csv", "--map", "Preis=price"], folder)
        #expect(wrong.stderr.contains("--map Preis=price: 'price' is not a field; use one of title, artist, genre, year, cover_url, slug, or params.NAME for one of the album's own fields (--map Preis=params.price)"), "\(wrong.stderr)")
        let maps = ["--map", "Preis=params.price", "--map", "Zustand=params.condition"]
        let first = try await run(["import", "in.csv"] + maps, folder)
        #expect(first.status == 0, "\(first.stderr)")
        // The new album has what its row gives (an empty cell gives nothing); album 1 differs.
        #expect(try params(folder) == [#""params": {"price":"9.99"}"#])
        #expect(first.stdout.contains(#"which differs: params.price (none) there, "12,50 €" here; params.condition (none) there, "VG+" here; `gallery edit 1 --param 'price=12,50 €' --param 'condition=VG+'` takes the file's"#), "\(first.stdout)")
        let update = try await run(["import", "in.csv", "--update"] + maps, folder)
        #expect(update.stdout.contains(#"updated album 1 from row 1 (line 2): "Best of Bowie" by David Bowie: params.price (none) → "12,50 €"; params.condition (none) → "VG+""#), "\(update.stdout)")
        #expect(try params(folder) == [#""params": {"price":"12,50 €","condition":"VG+"}"#, #""params": {"price":"9.99"}"#])
        // The build gives them to scripts in the data file.
        #expect(try await run(["build", "-q"], folder).status == 0)
        #expect(try folder.read("site/public/albums.json").contains(#""params":{"price":"12,50 €","condition":"VG+"}"#))
    }
}
