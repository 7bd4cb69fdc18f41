import Testing
@testable import GalleryKit

@Suite struct PositionValidationTests {
    @Test func findsEveryStartTagAndNothingElse() {
        let source = Array("""
            <?xml version="1.0"?>
            <!DOCTYPE svg [ <!ENTITY e "<fake/>"> <!-- ]> <fake/> --> ]>
            <svg a="1 > 0"><!-- <fake/> --><![CDATA[ <fake/> ]]><?pi <fake/> ?>
              <g
                 class="x"><é/></g></svg>
            """.utf8)
        let tags = TagStartIndex(source: source).tags
        #expect(tags.map(\.name) == ["svg", "g", "é"])
        #expect(tags.map(\.position.description) == ["3:1", "4:3", "5:16"])
        #expect(tags.map(\.endLine) == [3, 5, 5])
    }

    @Test func fallsBackToLibxml2sLineWhenTheSourceAndTheTreeDisagree() throws {
        let page = Array("<r>\n<a/><b/><a/>\n</r>".utf8)
        let document = try #require(XMLDocument.parse(page).document)
        let root = try #require(document.root)
        let secondA = Array(root.children)[2]
        var findings = Findings(path: "x.xml")
        findings.error("here", at: Findings.Located(element: secondA, ordinal: 3))
        // An extra tag in front shifts every ordinal; counting tags per line still finds the spot.
        let shifted = Array("<x/><r>\n<a/><b/><a/>\n</r>".utf8)
        #expect(findings.diagnostics(source: shifted, document: document).map(\.at) == ["2:9"])
        #expect(findings.diagnostics(source: page, document: document).map(\.at) == ["2:9"])
    }
}
