import Testing
@testable import GalleryKit

/// `XHTMLStreamCheck` lets a page skip the tree-based validation, so it must never pass a page
/// on which that validation finds anything. It should also pass the pages a build renders, or
/// the build pays for both parses.
@Suite struct XHTMLStreamCheckTests {
    typealias Fixtures = ValidationFixtures

    /// Whether the streaming check passes `bytes` as the fixture page.
    static func passes(_ bytes: [UInt8], path: String = Fixtures.pagePath, validator: PageValidator = Fixtures.validator) -> Bool {
        XHTMLStreamCheck.passes(bytes, resolver: validator.resolver(for: path))
    }

    /// What the tree-based validation finds on `bytes`.
    static func findings(_ bytes: [UInt8], path: String = Fixtures.pagePath, validator: PageValidator = Fixtures.validator) -> [Diagnostic] {
        validator.diagnoseXHTML(bytes, path: path)
    }

    @Test func passesTheValidFixtureAndPagesShapedLikeTheBuildsOwn() {
        #expect(Self.passes(Fixtures.page(Fixtures.validBody)))
        let validator = PageValidator(outputPaths: ValidationBenchmarkTests.outputs(albums: 2_000))
        for current in stride(from: 0, to: 2_000, by: 97) {
            let page = ValidationBenchmarkTests.albumPage(current)
            #expect(Self.findings(page.bytes, path: page.path, validator: validator) == [])
            #expect(Self.passes(page.bytes, path: page.path, validator: validator), "album page \(current)")
        }
    }

    /// One page per rule the tree-based validation applies, each breaking it once.
    static let broken: [(why: String, body: [String])] = [
        ("unclosed element", ["<p><br>one</p>"]),
        ("undefined entity", ["<p>a&nbsp;b</p>"]),
        ("duplicate id", ["<p id=\"x\">one</p>", "<div><p id=\"x\">two</p></div>"]),
        ("img without alt", ["<img src=\"../../covers/a.svg\"/>"]),
        ("tile image without width", ["<ul><li class=\"tile\"><img src=\"../../covers/a.svg\" alt=\"\" height=\"100\"/></li></ul>"]),
        ("tile-image class without height", ["<p><img class=\"x tile-image\" src=\"../../covers/a.svg\" alt=\"\" width=\"100\"/></p>"]),
        ("tile svg image without size", ["<div class=\"tile\"><svg xmlns=\"http://www.w3.org/2000/svg\"><image href=\"../../covers/a.svg\"/></svg></div>"]),
        ("broken link", ["<a href=\"../c/\">c</a>"]),
        ("broken xlink", ["<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"><use xlink:href=\"../../nowhere.svg#x\"/></svg>"]),
        ("broken script", ["<script src=\"../../assets/other.js\"></script>"]),
        ("broken stylesheet", ["<link rel=\"stylesheet\" href=\"../../assets/other.css\"/>"]),
        ("broken srcset candidate", ["<img src=\"../../covers/a.svg\" srcset=\"../../covers/a.svg 1x, ../../covers/a@2x.jpg 2x\" alt=\"\"/>"]),
        ("broken audio", ["<audio src=\"../../media/a.mp3\"></audio>"]),
        ("broken poster", ["<video poster=\"../../covers/p.jpg\"></video>"]),
        ("broken caption track", ["<video><track src=\"../../v.vtt\"/></video>"]),
        ("broken frame", ["<iframe src=\"../../player.html\" title=\"p\"></iframe>"]),
        ("broken object", ["<object data=\"../../o.pdf\"></object>"]),
        ("broken embed", ["<embed src=\"../../e.svg\"/>"]),
        ("broken image input", ["<form action=\"\"><input type=\"image\" src=\"../../go.png\" alt=\"Go\"/></form>"]),
        ("broken image map area", ["<map name=\"m\"><area href=\"../../gone/\" alt=\"g\"/></map>"]),
        ("broken source", ["<picture><source srcset=\"../../covers/c.webp\"/><img src=\"../../covers/a.svg\" alt=\"\"/></picture>"]),
        ("link above the root", ["<a href=\"../../../x.html\">x</a>"]),
        ("outside the base path", ["<a href=\"/../x\">x</a>"]),
        ("malformed escape", ["<a href=\"../b/%zz\">x</a>"]),
        ("fragment naming no id", ["<a href=\"#nowhere\">x</a>"]),
        ("xml:id the tree builder checks", ["<p xml:id=\"1 2\">x</p>"]),
        ("a style whose comment holds its end tag", ["<style><!-- </style> -->p{background:url(../../nope.png)}</style>"]),
        ("a style url split by a CDATA section", ["<style>p{background:u<![CDATA[rl(../../nope.png)]]>}</style>"]),
        ("a style whose instruction holds its end tag", ["<style><?x </style> ?>p{background:url(../../nope.png)}</style>"]),
        ("namespace warning", ["<p xmlns:q=\"not a uri\">x</p>"]),
        ("element name with a capital", ["<H1>x</H1>"]),
        ("attribute name with a capital", ["<p ID=\"x\">x</p>"]),
        ("svg name a browser spells otherwise", ["<svg xmlns=\"http://www.w3.org/2000/svg\"><IMAGE href=\"../../covers/a.svg\"/></svg>"]),
        ("svg attribute a browser spells otherwise", ["<svg VIEWBOX=\"0 0 1 1\"/>"]),
        ("empty path segment", ["<a href=\"..//b/\">x</a>"]),
        ("reference in a script", ["<script>if (a &amp;&amp; b) {}</script>"]),
        ("reference in a second script", ["<script>a()</script><p>&amp;</p><script type=\"module\">b &amp;&amp; c</script>"]),
        ("reference in a style", ["<style type=\"text/css\" media=\"a>b\">a::after { content: \"&#60;\" }</style>"]),
        ("broken url in a style attribute", ["<p style=\"background: url(../../covers/c.svg)\">x</p>"]),
        ("broken url in a style element", ["<style>p { color: red } .x { background: url('../../covers/c.svg') }</style>"]),
        ("url in a style naming no id", ["<svg xmlns=\"http://www.w3.org/2000/svg\"><rect style=\"fill: url(#nowhere)\"/></svg>"]),
        ("url climbing above the root", ["<p style=\"background:url(../../../a.svg)\">x</p>"]),
        ("javascript link", ["<a href=\"JavaScript:alert(document.cookie)\">buy</a>"]),
        ("vbscript image", ["<img src=\"vbscript:x\" alt=\"\"/>"]),
    ]

    @Test(arguments: broken.indices)
    func failsEveryPageTheFullValidationFaults(_ index: Int) {
        let (why, body) = Self.broken[index]
        let bytes = Fixtures.page(Fixtures.validBody + body)
        let faulted = !Self.findings(bytes).isEmpty
        let passed = Self.passes(bytes)
        #expect(faulted, "the tree-based validation should fault: \(why)")
        #expect(!passed, "\(why)")
    }

    @Test func leavesDeclarationsAndAmpersandsInReferencesToTheFullValidation() {
        let page = String(decoding: Fixtures.page(Fixtures.validBody), as: UTF8.self)
        let unsure = [
            page.replacingFirst("<!DOCTYPE html>", with: "<!DOCTYPE html [<!ENTITY x \"y\">]>"),
            page.replacingFirst("<!DOCTYPE html>", with: "<!DOCTYPE html [<!ELEMENT p ANY>]>"),
            page.replacingFirst("href=\"/\"", with: "href=\"/?a=1&amp;b=2\""),
            page.replacingFirst("<body>", with: "<body><p id=\"a&amp;b\">x</p>"),
        ]
        for text in unsure {
            let bytes = Array(text.utf8)
            #expect(Self.findings(bytes) == [], "the page itself is valid")
            let passed = Self.passes(bytes)
            #expect(!passed, "\(text)")
            #expect(Fixtures.validator.validateXHTML(bytes, path: Fixtures.pagePath) == [])
        }
    }

    @Test func failsAPageWithoutItsSkeleton() {
        let skeletons = [
            "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>t</title></head><body/></html>",
            "<html lang=\"en\"><head><title>t</title></head><body/></html>",
            "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><body/></html>",
            "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head/><body/></html>",
            "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><meta charset=\"utf-8\"/><x><title>t</title></x></head><body/></html>",
            "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><title>t</title></head></html>",
            "<html xmlns=\"http://www.w3.org/1999/xhtml\" xml:lang=\"en\"><head><title>t</title></head><body/></html>",
            "<page xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><title>t</title></head><body/></page>",
            "",
        ]
        for page in skeletons {
            let bytes = Array(page.utf8)
            let faulted = !Self.findings(bytes).isEmpty
            let passed = Self.passes(bytes)
            #expect(faulted, "\(page)")
            #expect(!passed, "\(page)")
        }
        let whole = Array("<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><title>t</title></head><body/></html>".utf8)
        #expect(Self.findings(whole) == [])
        #expect(Self.passes(whole))
    }

    /// Scripts and styles whose content XML and HTML read alike pass: no reference, or one in
    /// a CDATA section, or in SVG's own `<style>`.
    @Test func passesInlineScriptsAndStylesWithoutReferences() {
        let page = Fixtures.page(Fixtures.validBody + [
            "<p>&amp;</p><script>var a = 1 > 0;</script><style type=\"text/css\">p > a { color: red }</style><p>&lt;</p>",
            "<script>//<![CDATA[\nif (a && b < c) {}\n//]]></script><style>/*<![CDATA[*/ a::after { content: \"&amp;\" } /*]]>*/</style>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"><style>text::after { content: \"&lt;\" }</style></svg>",
            "<script src=\"../../assets/gallery.js\"/><script></script>",
        ])
        #expect(Self.findings(page) == [])
        #expect(Self.passes(page))
    }

    /// URLs in `style` attributes and `<style>` elements that land on files or ids pass, and so
    /// do the ones a style sheet may hold that name nothing (comments, strings, other functions).
    @Test func passesInlineStylesWhoseURLsResolve() {
        let page = Fixtures.page(Fixtures.validBody + [
            "<p style=\"background: url(../../covers/a.svg) no-repeat; color: red\">a</p>",
            "<style>/* url(nowhere.png) */ .x { background: URL( \"../../covers/b.svg\" ); content: \"url(nowhere.png)\" } .y { background: myurl(nowhere.png) }</style>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"><rect style=\"fill: url(#title)\"/></svg>",
            "<div style=\"background-image: url(data:image/gif;base64,R0lGODlhAQABAAAAACw=), url(https://example.com/a.png)\">b</div>",
        ])
        #expect(Self.findings(page) == [])
        #expect(Self.passes(page))
    }

    @Test func passesSVGAndMathMLNamesInTheirOwnCase() {
        let page = Fixtures.page(Fixtures.validBody + [
            "<svg viewBox=\"0 0 10 10\"><defs><linearGradient id=\"lg\" gradientUnits=\"userSpaceOnUse\"/></defs><foreignObject/></svg>",
            "<math xmlns=\"http://www.w3.org/1998/Math/MathML\"><mi definitionURL=\"x\">x</mi></math>",
        ])
        #expect(Self.findings(page) == [])
        #expect(Self.passes(page))
    }

    /// The check reads white space after a page's bytes (`XHTMLStreamCheck.tail`, which spares
    /// libxml2 topping its input up near the end): a page cut short anywhere, inside a tag, an
    /// attribute value, a reference, a comment or between elements, must fail it all the same,
    /// and the whole page, or one with white space of its own after the root, pass. (Only the
    /// page without its last line break, or without more of the white space after its root, is
    /// whole.)
    @Test func failsThePageCutShortAnywhere() {
        let page = Fixtures.page(Fixtures.validBody)
        #expect(XHTMLStreamCheck.takesTail(page.withUnsafeBufferPointer { $0 }))
        #expect(Self.passes(page))
        #expect(Self.passes(page + Array("\n \t\n".utf8)))
        var cut = 0
        for count in 1..<page.count {
            let prefix = Array(page[..<count])
            guard !Self.findings(prefix).isEmpty else { continue }
            cut += 1
            if Self.passes(prefix) {
                Issue.record("passed the page cut after \(count) of \(page.count) bytes: …\(String(decoding: prefix.suffix(40), as: UTF8.self))")
            }
        }
        #expect(cut > 1_000)
    }

    /// A page in UTF-16 reads no spaces after it (they would be half characters there), and the
    /// check answers for it as the full validation does.
    @Test func readsAPageInUTF16AsItIs() {
        let text = String(decoding: Fixtures.page(Fixtures.validBody), as: UTF8.self)
        let utf16 = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let withMark: [UInt8] = [0xFF, 0xFE] + utf16
        #expect(!XHTMLStreamCheck.takesTail(utf16.withUnsafeBufferPointer { $0 }))
        #expect(!XHTMLStreamCheck.takesTail(withMark.withUnsafeBufferPointer { $0 }))
        #expect(Self.findings(withMark).isEmpty)
        // The closing `>` half there (its line break after it gone): a space byte after it
        // would complete a character, `\u{203E}`.
        #expect(text.hasSuffix(">\n"))
        let cut = Array(withMark.dropLast(3))
        #expect(!Self.findings(cut).isEmpty)
        #expect(!Self.passes(cut))
    }

    /// Random edits of the valid page: whatever the tree-based validation faults, the streaming
    /// check fails too; and the edits leave enough valid pages that passing is exercised as well.
    @Test func neverPassesAPageTheFullValidationFaults() {
        let original = Fixtures.page(Fixtures.validBody)
        let insertions: [[UInt8]] = [
            "<", ">", "&", "\"", "'", "/", "#", " id=\"title\"", " id=\"tracks\"", " class=\"tile\"", " class=\"tile-image\"",
            "<img src=\"../../covers/a.svg\"/>", "<img src=\"../../covers/a.svg\" alt=\"\"/>", "&amp;", "&#38;", "&#x26;",
            " xml:id=\"q\"", "<p id=\"n\">n</p>", "<a href=\"#n\">n</a>", "<a href=\"#title\">t</a>", "../", "%2", "%41",
            "<!-- c -->", "<![CDATA[<x>]]>", " width=\"1\"", " height=\"1\"", " alt=\"\"", "\u{e9}", "\t", "\n",
            "<IMG src=\"../../covers/a.svg\" alt=\"\"/>", " ID=\"n\"", " viewBox=\"0 0 1 1\"", "<svg><linearGradient/></svg>",
            "<script>a</script>", "<style>b</style>", "//", " style=\"background:url(../../covers/a.svg)\"",
            " style=\"background:url(../../covers/z.svg)\"", "<style>p{background:url(#title)}</style>",
        ].map { Array($0.utf8) }
        let (faulted, passedValid) = Fixtures.fuzz(original, inserting: insertions, seed: 0x6761_6c6c_6572_79, findings: { Self.findings($0) }, passes: { Self.passes($0) })
        #expect(faulted > 300)
        #expect(passedValid > 100)
    }
}
