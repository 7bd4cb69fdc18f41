import Testing
@testable import GalleryKit

/// Body lines start on line 9 of every fixture page (see `ValidationFixtures.page`).
@Suite struct XHTMLValidationTests {
    typealias Fixtures = ValidationFixtures

    @Test func aValidPolyglotPagePasses() {
        #expect(Fixtures.diagnostics(Fixtures.validBody) == [])
    }

    @Test func reportsAnElementLeftOpenWhereLibxml2NoticesIt() throws {
        // <p><br>one</p>: the `>` of `</p>` is column 14, libxml2 reports the column after it.
        let diagnostics = Fixtures.diagnostics(["<p><br>one</p>"])
        let first = try #require(diagnostics.first)
        #expect(first.at == "9:15")
        #expect(first.severity == .error)
        #expect(first.message == "Opening and ending tag mismatch: br line 9 and p; void elements must close themselves in XHTML: <br/>")
        #expect(first.path == "albums/a/index.html")
    }

    /// A page that is not UTF-8 (a static page saved as Latin-1) is said so, with what to do:
    /// libxml2's words printed with a literal `\u{A}` in them and no advice.
    @Test func aPageThatIsNotUTF8IsToldToBeSavedAsUTF8() throws {
        var page = Fixtures.page(["<p>caf\u{E9}</p>"])
        // é as Latin-1's one byte, not UTF-8's two.
        let at = try #require(page.firstIndex(of: 0xC3))
        page.replaceSubrange(at...(at + 1), with: [0xE9])
        let found = Fixtures.validator.validateXHTML(page, path: Fixtures.pagePath)
        #expect(found.map(\.message) == ["this is not UTF-8 text (bytes 0xE9 0x3C 0x2F 0x70); pages are UTF-8: save the file as UTF-8 (from Latin-1: iconv -f latin1 -t utf-8)"])
    }

    /// After a fatal error libxml2 reads on from wherever the mistake left it: a `<br>` left
    /// open used to give four errors, the later ones blaming `</body>`, `</html>` and the end.
    @Test func reportsOnlyTheFirstFatalErrorOfAPage() {
        #expect(Fixtures.diagnostics(["<p><br>one</p>"]).map(\.description) == [
            "albums/a/index.html:9:15: error: Opening and ending tag mismatch: br line 9 and p; void elements must close themselves in XHTML: <br/>",
        ])
        #expect(Fixtures.diagnostics(["<p class=x>one</p>", "<p>two</p>"]).map(\.at) == ["9:10"])
    }

    /// libxml2 skips an undefined entity without losing its place, so each is worth reporting,
    /// up to the first fatal error of another kind.
    @Test func reportsEveryUndefinedEntityUpToAnotherFatalError() {
        let diagnostics = Fixtures.diagnostics(["<p>a&nbsp;b &copy;</p>", "<p><br></p>", "<p>&hellip;</p>"])
        #expect(diagnostics.map { "\($0.at ?? ""): \($0.message.prefix { $0 != ";" })" } == [
            "9:11: Entity 'nbsp' not defined",
            "9:19: Entity 'copy' not defined",
            "10:12: Opening and ending tag mismatch: br line 10 and p",
        ])
    }

    /// HTML habits that XHTML forbids, with the hint that follows libxml2's message.
    static let habits: [(body: String, hint: String)] = [
        ("<p>one<br>two</p>", "void elements must close themselves in XHTML: <br/>"),
        ("<div><hr></div>", "void elements must close themselves in XHTML: <hr/>"),
        ("<P>one</p>", "start and end tags must be spelt alike, in lowercase in XHTML: <p>…</p>"),
        ("<p>a&nbsp;b</p>", "XHTML knows only &amp; &lt; &gt; &quot; &apos;: write &#160; for &nbsp;"),
        ("<p>&copy; &reg;</p>", "XHTML knows only &amp; &lt; &gt; &quot; &apos;: write &#169; for &copy;"),
        ("<p>a &mdash; b</p>", "XHTML knows only &amp; &lt; &gt; &quot; &apos;: write &#8212; for &mdash;"),
        ("<p>1&ndash;2</p>", "XHTML knows only &amp; &lt; &gt; &quot; &apos;: write &#8211; for &ndash;"),
        ("<p>and so on&hellip;</p>", "XHTML knows only &amp; &lt; &gt; &quot; &apos;: write &#8230; for &hellip;"),
        ("<p>&laquo;a&raquo;</p>", "XHTML knows only &amp; &lt; &gt; &quot; &apos;: write &#171; for &laquo;"),
        ("<p>9&euro;</p>", "XHTML knows only &amp; &lt; &gt; &quot; &apos;: write &#8364; for &euro;"),
        ("<p>gallery&trade;</p>", "XHTML knows only &amp; &lt; &gt; &quot; &apos;: write &#8482; for &trade;"),
        ("<p>&nosuchname;</p>", "XHTML knows only &amp; &lt; &gt; &quot; &apos;: write the character itself, or &amp; for an & in text or an attribute"),
        ("<p class=lead>x</p>", "attribute values must be quoted in XHTML"),
        ("<p><input disabled/></p>", "attributes need a value in XHTML: disabled=\"disabled\""),
        ("<p>1 < 2</p>", "write &lt; for a < in text"),
        ("<p>Tom & Jerry</p>", "write &amp; for an & in text or an attribute (a link's ?a=1&b=2 as ?a=1&amp;b=2)"),
        ("<p>AT&T</p>", "write &amp; for an & in text or an attribute (a link's ?a=1&b=2 as ?a=1&amp;b=2)"),
        ("<p><a href=\"https://www.youtube.com/watch?v=abc&t=42\">video</a></p>", "write &amp; for an & in text or an attribute (a link's ?a=1&b=2 as ?a=1&amp;b=2)"),
        ("<svg width=\"9\" height=\"9\"><defs><circle id=\"disc\" r=\"4\"/></defs><use xlink:href=\"#disc\"/></svg>", "write href=\"…\" (SVG 2), or declare xmlns:xlink=\"http://www.w3.org/1999/xlink\" on the <svg>"),
        ("<p><svg:svg width=\"9\" height=\"9\"/></p>", "declare xmlns:svg=\"http://www.w3.org/2000/svg\" on that element or one around it, or drop the prefix"),
        ("<p my:x=\"1\">x</p>", "declare xmlns:my=\"…\" on that element or one around it, or drop the prefix"),
    ]

    @Test(arguments: habits.indices)
    func hintsTheFixForAnHTMLHabit(_ index: Int) throws {
        let (body, hint) = Self.habits[index]
        let first = try #require(Fixtures.diagnostics([body]).first)
        #expect(first.message.hasSuffix("; " + hint), "\(body): \(first.message)")
    }

    @Test func hintsHowToWriteAnInlineScript() {
        let hint = "a < or & in an inline script must be escaped in XHTML: move the script to a file under assets/ or static/, or wrap it in //<![CDATA[ … //]]>"
        for script in ["<script>if (1 < 2) {}</script>", "<script>if (a && b) {}</script>", "<script>if (a &&b) {}</script>", "<script>document.write(\"<p>\")</script>"] {
            #expect(Fixtures.diagnostics([script]).map(\.message).map { $0.hasSuffix("; " + hint) } == [true], "\(script)")
        }
        #expect(Fixtures.diagnostics(["<script>//<![CDATA[\nif (1 < 2 && 3) {}\n//]]></script>"]) == [])
        // After a script, or in a script's start tag, the usual hints apply.
        #expect(Fixtures.diagnostics(["<script src=\"../../assets/gallery.js\"/><p>1 < 2</p>"]).first?.message.hasSuffix("; write &lt; for a < in text") == true)
        #expect(Fixtures.diagnostics(["<script src=../../assets/gallery.js></script>"]).first?.message.hasSuffix("; attribute values must be quoted in XHTML") == true)
    }

    /// The HTML parser reads `<style>` as raw text too, so the text advice (`&lt;`) would reach
    /// the CSS as it is: a style gets the script's advice, with CSS's own comments.
    @Test func hintsHowToWriteAnInlineStyle() {
        let hint = "a < or & in an inline style breaks XHTML, and written &lt; or &amp; it reaches the CSS as it is in a browser: move the CSS to a file under assets/, or wrap it in /*<![CDATA[*/ … /*]]>*/"
        for style in ["<style>a::after { content: \"<\" }</style>", "<style>a::after { content: \"&\" }</style>", "<style>.a:has(<b) {}</style>", "<style>p::before{content:\"<b>\"}</style>"] {
            #expect(Fixtures.diagnostics([style]).map(\.message).map { $0.hasSuffix("; " + hint) } == [true], "\(style): \(Fixtures.diagnostics([style]))")
        }
        #expect(Fixtures.diagnostics(["<style>/*<![CDATA[*/ a::after { content: \"<&\" } /*]]>*/</style>"]) == [])
        #expect(Fixtures.diagnostics(["<style>p { color: red }</style><p>1 < 2</p>"]).first?.message.hasSuffix("; write &lt; for a < in text") == true)
    }

    /// XML decodes `&lt;` in a script or style; a browser, reading the page as HTML, leaves it
    /// as it is: one warning per element, at its first reference. In a CDATA section, in SVG's
    /// own `<style>` (which HTML parses as foreign content, decoding it) and in text, no warning.
    @Test func warnsOfAReferenceInAScriptOrStyle() {
        let diagnostics = Fixtures.diagnostics([
            "<style>a::after { content: \"&lt;\" }</style>",
            "<script>if (a &amp;&amp; b &#x3C; c) {}</script>",
            "<script>//<![CDATA[\nvar s = \"&amp;\";\n//]]></script>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"><style>text::after { content: \"&lt;\" }</style></svg>",
            "<p>&lt;p&gt; &amp; <code>&#60;</code></p>",
            "<style><!-- &amp; --></style>",
        ])
        #expect(diagnostics.map(\.description) == [
            "albums/a/index.html:9:29: warning: '&lt;' inside an inline <style> is left as it is by browsers, which read the page as HTML (XML reads '<'); write the character itself, inside /*<![CDATA[*/ … /*]]>*/ if it is a < or an &, or move the CSS to a file under assets/",
            "albums/a/index.html:10:15: warning: '&amp;' inside an inline <script> (and 2 more) is left as it is by browsers, which read the page as HTML (XML reads '&'); write the character itself, inside //<![CDATA[ … //]]> if it is a < or an &, or move the script to a file under assets/ or static/",
        ])
    }

    /// An instruction in a script holding `<!--` is no comment: the script ends at its end tag,
    /// and a reference in the page's text after it is no reference in the script (QA round 19).
    @Test func aScriptEndsAtItsEndTagPastAnInstruction() {
        #expect(Fixtures.diagnostics(["<script><?x <!-- ?></script>", "<p>Life &amp; Times</p>"]) == [])
        #expect(Fixtures.diagnostics(["<script><?x <!-- ?>&amp;</script>"]).count == 1)
    }

    @Test func reportsAMismatchedEndTag() throws {
        // <p><em>one</strong></p>: `</strong>` ends at column 19.
        let first = try #require(Fixtures.diagnostics(["<p><em>one</strong></p>"]).first)
        #expect(first.at == "9:20")
        #expect(first.message == "Opening and ending tag mismatch: em line 9 and strong")
    }

    @Test func rejectsHTMLNamedEntitiesAndStopsAtTheParseErrors() {
        // <p>a&nbsp;b</p>: the `;` is column 10. Fatal, so no other check runs (the img has no alt).
        let diagnostics = Fixtures.diagnostics(["<p>a&nbsp;b</p>", "<img src=\"missing.png\"/>"])
        #expect(diagnostics.map(\.description) == [
            "albums/a/index.html:9:11: error: Entity 'nbsp' not defined; XHTML knows only &amp; &lt; &gt; &quot; &apos;: write &#160; for &nbsp;",
        ])
    }

    @Test func reportsADuplicateIdWithTheLineOfTheFirst() {
        let diagnostics = Fixtures.diagnostics(["<p id=\"x\">one</p>", "<div><p id=\"x\">two</p></div>"])
        #expect(diagnostics.map(\.description) == [
            "albums/a/index.html:10:6: error: duplicate id 'x' (first used on line 9)",
        ])
    }

    /// A `<base href>` moves every relative reference of the page elsewhere in a browser, where
    /// the link check does not follow it, so it is an error; a `<base>` with only a target is not.
    @Test func aBaseWithAnAddressIsAnError() {
        let diagnostics = Fixtures.diagnostics([
            "<p><base href=\"https://cdn.example/\"/><a href=\"../b/\">b</a></p>",
            "<p><base target=\"_blank\"/></p>",
        ])
        #expect(diagnostics.count == 1, "\(diagnostics)")
        #expect(diagnostics.first?.at == "9:4")
        #expect(diagnostics.first?.message.hasPrefix("<base href> makes a browser resolve every relative link") == true)
        #expect(Fixtures.diagnostics(["<p><base target=\"_top\"/><a href=\"../b/\">b</a></p>"]).isEmpty)
    }

    @Test func requiresAltOnEveryImage() {
        let diagnostics = Fixtures.diagnostics([
            "<p><img src=\"../../covers/a.svg\"/></p>",
            "<p><img src=\"../../covers/b.svg\" alt=\"\"/></p>",
        ])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.at == "9:4")
        #expect(diagnostics.first?.message.hasPrefix("<img> has no alt attribute") == true)
    }

    @Test func requiresWidthAndHeightOnTileImages() {
        // Line 10: `<li class="big tile">` is columns 1–21, `<a href="../b/">` 22–37, `<img` at 38.
        let diagnostics = Fixtures.diagnostics([
            "<ul class=\"strip\">",
            "<li class=\"big tile\"><a href=\"../b/\"><img src=\"../../covers/b.svg\" alt=\"\" height=\"100\"/></a></li>",
            "</ul>",
            "<div class=\"tiles\"><img src=\"../../covers/a.svg\" alt=\"\"/></div>",
            "<img class=\"cover tile-image\" src=\"../../covers/a.svg\" alt=\"\" width=\"100\"/>",
        ])
        #expect(diagnostics.map(\.at) == ["10:38", "13:1"])
        #expect(diagnostics.map { $0.message.prefix(36) } == [
            "tile image has no width attribute (t", "tile image has no height attribute (",
        ])
    }

    @Test func reportsABrokenRelativeLink() {
        let diagnostics = Fixtures.diagnostics(["<nav><a href=\"../nowhere/\">Nowhere</a></nav>"])
        #expect(diagnostics.map(\.description) == [
            "albums/a/index.html:9:6: error: broken link to '../nowhere/' (no such file in the output: albums/nowhere/index.html)",
        ])
    }

    @Test func reportsALinkThatClimbsAboveTheOutputRoot() {
        let diagnostics = Fixtures.diagnostics(["<p>", "  <a href=\"../../../secret.txt\">x</a>", "</p>"])
        #expect(diagnostics.map(\.description) == [
            "albums/a/index.html:10:3: error: link to '../../../secret.txt' climbs above the output root",
        ])
    }

    @Test func reportsAFragmentThatNamesNoId() {
        let diagnostics = Fixtures.diagnostics(["<p><a href=\"#tracks\">Tracks</a> <a href=\"#top\">Top</a></p>"])
        #expect(diagnostics.map(\.description) == [
            "albums/a/index.html:9:4: error: link to '#tracks' names no element of this page (no id 'tracks')",
        ])
    }

    @Test func checksEveryKindOfReference() {
        let diagnostics = Fixtures.diagnostics([
            "<link rel=\"icon\" href=\"../../favicon.ico\"/>",
            "<script src=\"../../assets/app.js\"></script>",
            "<picture><source srcset=\"../../covers/a.webp 1x, ../../covers/b@2x.jpg 2x\"/><img src=\"../../covers/a.svg\" alt=\"\"/></picture>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><image href=\"../../covers/c.svg\"/><use href=\"#nothing\"/></svg>",
        ])
        #expect(diagnostics.map(\.at) == ["9:1", "10:1", "11:10", "12:41", "12:75"])
        #expect(diagnostics.map(\.message) == [
            "broken link to '../../favicon.ico' (no such file in the output: favicon.ico)",
            "broken link to '../../assets/app.js' (no such file in the output: assets/app.js)",
            "broken link to '../../covers/a.webp' (no such file in the output: covers/a.webp)",
            "broken link to '../../covers/c.svg' (no such file in the output: covers/c.svg)",
            "link to '#nothing' names no element of this page (no id 'nothing')",
        ])
    }

    /// Media, their posters and captions, frames, embedded objects, forms and image maps: a
    /// broken audio preview or poster must not ship, as a broken image does not.
    @Test func checksTheReferencesOfMediaFramesObjectsImageInputsAndMaps() {
        let elements = [
            "<audio src=\"../../media/a.mp3\" controls=\"controls\"></audio>",
            "<video src=\"../../media/v.mp4\" poster=\"../../covers/p.jpg\"><track kind=\"captions\" src=\"../../media/v.vtt\"/></video>",
            "<iframe src=\"../../player.html\" title=\"player\"></iframe>",
            "<object data=\"../../media/o.pdf\" type=\"application/pdf\"></object><embed src=\"../../media/e.svg\"/>",
            "<form action=\"../../search/\"><input type=\"image\" src=\"../../go.png\" alt=\"Go\"/></form>",
            "<map name=\"m\"><area shape=\"rect\" coords=\"0,0,1,1\" href=\"../../gone/\" alt=\"gone\"/></map>",
        ]
        let diagnostics = Fixtures.diagnostics(elements)
        #expect(diagnostics.map(\.message) == [
            "broken link to '../../media/a.mp3' (no such file in the output: media/a.mp3)",
            "broken link to '../../media/v.mp4' (no such file in the output: media/v.mp4)",
            "broken link to '../../covers/p.jpg' (no such file in the output: covers/p.jpg)",
            "broken link to '../../media/v.vtt' (no such file in the output: media/v.vtt)",
            "broken link to '../../player.html' (no such file in the output: player.html)",
            "broken link to '../../media/o.pdf' (no such file in the output: media/o.pdf)",
            "broken link to '../../media/e.svg' (no such file in the output: media/e.svg)",
            "broken link to '../../go.png' (no such file in the output: go.png)",
            "broken link to '../../gone/' (no such file in the output: gone/index.html)",
        ])
        // The same elements naming files that exist, another site, or the page itself pass.
        let fine = Fixtures.diagnostics([
            "<audio src=\"../../covers/a.svg\"></audio><video poster=\"../../covers/a.svg\"></video>",
            "<iframe src=\"https://player.example/embed/1\" title=\"player\"></iframe><form action=\"\"><p>x</p></form>",
            // A form's action is a server's endpoint, never a file of the output.
            "<form action=\"/subscribe\" method=\"post\"><p>x</p></form><form action=\"../../cgi-bin/cart.pl\"><p>y</p></form>",
        ])
        #expect(fine.map(\.description) == [])
    }

    @Test func placesFindingsOnTheStartTagEvenAcrossLinesCommentsAndNonASCIIText() {
        let diagnostics = Fixtures.diagnostics([
            "<!-- 2 > 1, and <img src=\"x\"/> is not an element -->",  // 9
            "<p>",  // 10
            "  <img",  // 11: libxml2 itself would say line 12, where the tag ends
            "    src=\"../../covers/a.svg\"/>",  // 12
            "</p>",  // 13
            "<p><img src=\"../../covers/a.svg\" alt=\"A\"/><img src=\"../../covers/b.svg\"/></p>",  // 14: 2nd img at 43
            "<p>Ça va <img src=\"../../covers/a.svg\"/></p>",  // 15: Ç is one column
        ])
        #expect(diagnostics.map(\.at) == ["11:3", "14:43", "15:10"])
    }

    @Test func requiresTheXHTMLPageSkeleton() {
        let page = Array("""
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml">
            <head><meta charset="utf-8"/></head>
            <p>no body</p>
            </html>
            """.utf8)
        let diagnostics = Fixtures.validator.validateXHTML(page, path: "index.html")
        #expect(diagnostics.map(\.description) == [
            "index.html:2:1: error: <html> has no lang attribute (the page's language, such as lang=\"en\")",
            "index.html:2:1: error: <html> has no <body>",
            "index.html:3:1: error: <head> has no <title>",
        ])
        let wrongNamespace = Array("<html lang=\"en\"><head><title>x</title></head><body/></html>".utf8)
        #expect(Fixtures.validator.validateXHTML(wrongNamespace, path: "index.html").map(\.at) == ["1:1"])
    }

    /// Browsers read the pages as HTML, which lowercases names: `<IMG>` is an image there, which
    /// the checks for `img` would never see, so a capital is an error naming the right spelling.
    @Test func namesWithCapitalsAreErrorsNamingTheLowercaseSpelling() {
        let diagnostics = Fixtures.diagnostics([
            "<IMG src=\"../../img/logo.png\"/><A HREF=\"../../nope.html\">x</A><DIV ID=\"title\">y</DIV>",  // 9
            "<H1>Title</H1>",  // 10
            "<p ID=\"intro\" Class=\"lead\" data-Album=\"1\" xml:lang=\"en\">x</p>",  // 11
        ])
        #expect(diagnostics.map(\.description) == [
            "albums/a/index.html:9:1: error: element <IMG> must be written in lowercase in XHTML: <img>",
            "albums/a/index.html:9:32: error: element <A HREF> must be written in lowercase in XHTML: <a href>",
            "albums/a/index.html:9:63: error: element <DIV ID> must be written in lowercase in XHTML: <div id>",
            "albums/a/index.html:10:1: error: element <H1> must be written in lowercase in XHTML: <h1>",
            "albums/a/index.html:11:1: error: attributes ID, Class, data-Album of <p> must be written in lowercase in XHTML: id, class, data-album",
        ])
    }

    /// Inside inline SVG and MathML, names keep the case those languages give them, as the HTML
    /// parser restores it; only a spelling it would change is an error.
    @Test func inlineSVGAndMathMLKeepTheirOwnCase() {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\" preserveAspectRatio=\"none\"><defs><linearGradient id=\"g\" gradientUnits=\"userSpaceOnUse\"/><clipPath id=\"c\"/></defs><foreignObject width=\"1\" height=\"1\"/><textPath/></svg>"
        let bare = "<svg viewBox=\"0 0 10 10\"><linearGradient id=\"h\"/><feDropShadow/></svg>"
        let math = "<math xmlns=\"http://www.w3.org/1998/Math/MathML\"><mi definitionURL=\"x\">x</mi></math>"
        #expect(Fixtures.diagnostics([svg, bare, math]) == [])
        let wrong = Fixtures.diagnostics([
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" VIEWBOX=\"0 0 1 1\"><IMAGE HREF=\"../../covers/a.svg\"/><use xlink:HREF=\"#x\"/><LinearGradient/></svg>",  // 9
            "<svg><Image/></svg><math><MI/></math>",  // 10
        ])
        #expect(wrong.map(\.description) == [
            "albums/a/index.html:9:1: error: attribute VIEWBOX of <svg> must be written as SVG spells it: viewBox",
            "albums/a/index.html:9:102: error: element <IMAGE HREF> must be written as SVG spells it: <image href>",
            "albums/a/index.html:9:136: error: attribute xlink:HREF of <use> must be written as SVG spells it: xlink:href",
            "albums/a/index.html:9:158: error: element <LinearGradient> must be written as SVG spells it: <linearGradient>",
            "albums/a/index.html:10:6: error: element <Image> must be written as SVG spells it: <image>",
            "albums/a/index.html:10:26: error: element <MI> must be written as MathML spells it: <mi>",
        ])
    }

    @Test func resolvesRootRelativeLinksAgainstTheBasePath() {
        let validator = PageValidator(outputPaths: Fixtures.outputPaths, basePath: "/my-repo/")
        let page = Fixtures.page([
            "<p><a href=\"/my-repo/albums/a/\">A</a> <a href=\"/my-repo\">Home</a> <a href=\"/albums/a/\">A</a></p>",
        ], root: "/my-repo/")
        let diagnostics = validator.validateXHTML(page, path: "404.html")
        #expect(diagnostics.map(\.description) == [
            "404.html:9:67: error: link to '/albums/a/' is outside the site's base path '/my-repo/'",
        ])
    }
}
