import Testing
@testable import GalleryKit

/// The URLs of style sheets: found as a browser finds them, and checked as the pages' links are.
@Suite struct StylesheetValidationTests {
    typealias Fixtures = ValidationFixtures

    /// The URLs `StylesheetURLs` finds in `css`, decoded, with the text at each one's offset.
    func urls(_ css: String) -> [String] {
        let bytes = Array(css.utf8)
        return bytes.withUnsafeBufferPointer { StylesheetURLs.all(in: $0) }.map { String(decoding: $0.url, as: UTF8.self) }
    }

    @Test func findsEveryFormOfURL() {
        #expect(urls("a { background: url(a.png) }") == ["a.png"])
        #expect(urls("a { background: url( \"b c.png\" ) }") == ["b c.png"], "quoted, with spaces inside the parentheses")
        #expect(urls("a { background: URL('c.png') }") == ["c.png"], "any case")
        #expect(urls("@import \"d.css\";\n@IMPORT url(e.css) screen;\n@import 'f.css';") == ["d.css", "e.css", "f.css"])
        #expect(urls("@font-face { src: url(g.woff2) format(\"woff2\"), url(h.woff) format(\"woff\") }") == ["g.woff2", "h.woff"])
        #expect(urls("a{background:url(i.png),url(j.png)}") == ["i.png", "j.png"])
    }

    @Test func decodesEscapes() {
        #expect(urls(#"a { background: url(a\ b.png) }"#) == ["a b.png"])
        #expect(urls(#"a { background: url("\61 .png") }"#) == ["a.png"], "a hex escape and the space that ends it")
        #expect(urls(#"a { background: url('caf\e9.png') }"#) == ["café.png"])
        #expect(urls(#"a { background: url(x\).png) }"#) == ["x).png"])
        #expect(urls("a { background: url(\"long\\\nname.png\") }") == ["longname.png"], "a line continued in a string")
    }

    @Test func skipsWhatIsNoURL() {
        #expect(urls("/* url(a.png) @import \"b.css\"; */ p { color: red }") == [])
        #expect(urls("p::after { content: \"url(c.png)\" } q::before { content: 'url(d.png)' }") == [])
        #expect(urls("p { background: myurl(e.png); x: -url(f.png); y: \\url(g.png) }") == [])
        #expect(urls("p { background: url (h.png) }") == [], "a space before the parenthesis makes it no function")
        #expect(urls("p { background: url(i.png") == ["i.png"], "an unclosed url() still names its file")
        #expect(urls("/* unclosed comment url(j.png)") == [])
        #expect(urls("") == [])
    }

    /// A site's style sheet, checked at `assets/site.css` unless `path` says otherwise.
    func check(_ css: [String], path: String = "assets/site.css", outputs: Set<String> = Fixtures.outputPaths.union(["assets/img/bg.png", "fonts/a.woff2"]), basePath: String = "/") -> [Diagnostic] {
        PageValidator(outputPaths: outputs, basePath: basePath).validateStylesheet(Array(css.joined(separator: "\n").utf8), path: path)
    }

    @Test func passesURLsThatLandOnFiles() {
        #expect(check([
            "body { background: url(img/bg.png) }",
            "@font-face { font-family: A; src: url(../fonts/a.woff2) format('woff2') }",
            ".a { background: url(/covers/a.svg), url(data:image/png;base64,AA==), url(https://cdn.example.com/x.png) }",
            ".b { fill: url(#gradient); background: url(//cdn.example.com/y.png) }",
            ".c { background: url(img/bg.png?v=2#x) }",
            "@import url(gallery.js);",
        ]) == [])
        #expect(check([".a { background: url(/site/covers/a.svg) }"], basePath: "/site/") == [])
    }

    @Test func faultsEachBrokenURLAtItsPlace() {
        let found = check([
            "body { color: red }",
            "  .a { background: url('img/none.png') }",
            "@import \"print.css\";",
            ".b { background: url(/covers/a.svg) }",
            ".c { background: url(../../x.png) }",
            ".d { background: url(img//bg.png) }",
        ], basePath: "/site/")
        #expect(found.map(\.position?.description) == ["2:20", "3:9", "4:18", "5:18", "6:18"])
        #expect(found.allSatisfy { $0.severity == .error && $0.path == "assets/site.css" })
        #expect(found[0].message.hasPrefix("broken url('img/none.png') (no such file in the output: assets/img/none.png); put the file in assets/"))
        #expect(found[1].message.hasPrefix("broken url('print.css')"))
        #expect(found[2].message == "url('/covers/a.svg') is outside the site's base path '/site/'")
        #expect(found[3].message == "url('../../x.png') climbs above the output root")
        #expect(found[4].message.contains("write 'img/bg.png'"))
    }

    /// The usual mistake: a path written from the page, where a style sheet's URLs are relative
    /// to the sheet. The message gives the path that works.
    @Test func givesThePathFromTheSheetWhenOneWasWrittenFromThePage() {
        let found = check(["h1 { background: url(covers/a.svg) }"], path: "assets/css/site.css")
        #expect(found.count == 1)
        #expect(found.first?.message == "broken url('covers/a.svg') (no such file in the output: assets/css/covers/a.svg); URLs in a style sheet are relative to the style sheet, not to the page: write '../../covers/a.svg'")
        #expect(check(["h1 { background: url(covers/a.svg) }"], path: "site.css") == [], "at the root the two are one")
    }

    /// `gallery check` looks through the style sheets of a folder too.
    @Test func theOutputCheckLooksThroughStylesheets() throws {
        let site = try OutputCheckValidationTests.TemporarySite()
        try site.write("index.html", Fixtures.page(["<p style=\"background: url(missing.png)\">x</p>"], root: ""))
        try site.write("assets/gallery.3fa2b1c0.css", Array("p { background: url(gone.png) }\n".utf8))
        let found = try OutputChecker.check(outputFolder: site.root, displayPrefix: "public")
        #expect(found.map(\.description) == [
            "public/assets/gallery.3fa2b1c0.css:1:17: error: broken url('gone.png') (no such file in the output: assets/gone.png); put the file in assets/ (or static/), or correct the path, which is relative to the style sheet",
            "public/index.html:9:1: error: broken url('missing.png') in the style attribute (no such file in the output: missing.png)",
        ])
    }
}
