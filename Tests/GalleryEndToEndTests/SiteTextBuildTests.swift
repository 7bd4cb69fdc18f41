import Foundation
import Testing

/// `[text]` as a user meets it: a site in German without a template of its own, checked like
/// any other, and a changed word rewritten everywhere it shows and nowhere else.
@Suite struct SiteTextBuildTests {
    static let german = """
        language = "de"

        [carousel]
        index_page_size = 4

        [text]
        by = "von"
        artist = "Künstler"
        album_by = "{title} von {artist}"
        album_count = "{count} Alben"
        page_of = "Seite {number} von {count}"
        not_found = "Nicht gefunden"

        """

    @Test func aSiteInGermanPassesTheChecksAndShowsItsWords() async throws {
        let folder = try Fixture.site((0..<6).map { Fixture.album("Titel \($0)", "Band & Co") }, config: Self.german)
        let run = try await GalleryBinary.run(["build", "-q"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let index = try folder.read("public/index.html")
        #expect(index.contains("<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"de\" xml:lang=\"de\">"))
        #expect(index.contains("alt=\"Titel 0 von Band &amp; Co\""))
        #expect(index.contains("<th scope=\"row\">Künstler</th>"))
        #expect(index.contains("6 Alben"))
        #expect(index.contains("<span>Seite 1 von 2</span>"))
        // Each of the page's four tiles, and the status line's pattern is the English default.
        #expect(index.components(separatedBy: " von Band &amp; Co\"").count - 1 == 4)
        #expect(index.contains("data-status=\"{number} of {count}: {title} by {artist}\""))
        #expect(try folder.read("public/page/2/index.html").contains("<title>Albums · Seite 2 von 2</title>"))
        // Each index page's heading says which page it is, as its title does (the first names none).
        #expect(try folder.read("public/page/2/index.html").contains("<h1>Albums <span class=\"page-of\">· Seite 2 von 2</span></h1>"))
        #expect(index.contains("<h1>Albums</h1>"))
        #expect(try folder.read("public/albums/band-and-co-titel-3/index.html").contains("<span class=\"by\">von <span"))
        #expect(try folder.read("public/404.html").contains("<h1>Nicht gefunden</h1>"))
        let svg = try folder.read("public/carousel.svg")
        #expect(svg.contains("<title>Titel 2 von Band &amp; Co</title>"))
        #expect(svg.contains("<desc>6 Alben</desc>"))
        #expect(svg.contains(" lang=\"de\" xml:lang=\"de\">"), "the strip's language is the site's")
        let check = try await GalleryBinary.run(["check"], in: folder.url)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// A word is part of every page's input: changing it rewrites the pages that show it and
    /// the strip (in an incremental build too), and not the 404 page, which does not show it, or
    /// the data files, which carry no words.
    @Test func aChangedWordRewritesThePagesAndTheStripOnly() async throws {
        let folder = try Fixture.site((0..<6).map { Fixture.album("Titel \($0)", "Band") }, config: Self.german)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let before = try folder.inodes()
        try folder.write(Self.german.replacingOccurrences(of: "album_by = \"{title} von {artist}\"", with: "album_by = \"{title} – {artist}\""), to: "gallery.toml")
        let run = try await GalleryBinary.run(["build", "-q"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let changed = TemporaryFolder.changed(before, try folder.inodes())
        let pages = Set(folder.files(under: "public").filter { $0.hasSuffix(".html") && $0 != "404.html" })
        #expect(changed == pages.union(["carousel.svg"]), "\(changed.sorted())")
        #expect(try folder.read("public/index.html").contains("alt=\"Titel 0 – Band\""))
        #expect(try folder.read("public/carousel.svg").contains("<title>Titel 5 – Band</title>"))
    }

    /// A mistake in a word stops the build before anything is written, at its line.
    @Test func aPlaceholderAWordCannotFillStopsTheBuildAtItsLine() async throws {
        let folder = try Fixture.site([Fixture.album("Titel", "Band")], config: "[text]\nby = \"von\"\ncover_of = \"Cover von {album}\"\n")
        let run = try await GalleryBinary.run(["build", "-q"], in: folder.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("gallery.toml:3:1: error: [text] cover_of uses {album}, which it does not know; it can use {title}, {artist}, {genre}, {year}"), "\(run.stderr)")
        #expect(!folder.exists("public/index.html"))
    }
}
