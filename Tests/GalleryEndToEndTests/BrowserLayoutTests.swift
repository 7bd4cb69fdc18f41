import Foundation
import Testing

extension BrowserTests {
    /// The built-in stylesheet and layout in a real browser (Tests/Browser/layout.py): nothing
    /// widens the page at 320 px in German (longer button labels) or beside an album whose title
    /// has no space in 78 letters; in forced colours the focused current tile's ring differs
    /// from the selection's; a Hebrew site is `dir="rtl"` and its strip still scrolls left to
    /// right; with a padding of 2 px the rings around the focused current tile are not clipped
    /// or covered; a Hebrew title on the German site sits by its label. In the same serialized suite as the other browser checks: one Chromium at a time.
    @Test func theLayoutReflowsShowsFocusAndReadsRightToLeft() async throws {
        let long = "Supercalifragilisticexpialidociousandevenmorecharactersthatneverbreakanywhere"
        let albums = (1...12).map { number in
            Fixture.album(number == 6 ? long : number == 9 ? "שלום עליכם" : "Album \(number)", "Artist \(number)", slug: "album-\(number)")
        }
        let words = """
            [text]
            previous_album = "Vorheriges Album"
            next_album = "Nächstes Album"

            """
        let german = try Fixture.site(albums, config: "language = \"de\"\n\n" + words)
        // With words of its own (a Hebrew site of English words is a note).
        // Its tiles 2 px apart from the strip's edges (padding 2), for the rings' room.
        let hebrew = try Fixture.site(albums, config: "language = \"he\"\n\n[carousel]\npadding = 2\n\n[text]\nprevious_album = \"האלבום הקודם\"\nnext_album = \"האלבום הבא\"\n")
        for site in [german, hebrew] {
            let build = try await GalleryBinary.run(["build", "-q", "--strict"], in: site.url)
            #expect(build.status == 0, "\(build.stderr)")
        }
        #expect(try hebrew.read("public/index.html").contains(#"xml:lang="he" dir="rtl">"#))
        #expect(!(try german.read("public/index.html")).contains("dir=\"rtl\""))
        let germanServer = try await ServeProcess(in: german.url)
        let hebrewServer = try await ServeProcess(in: hebrew.url)
        try await expectBrowserChecks("layout.py", [germanServer.url, hebrewServer.url], count: 5)
    }
}
