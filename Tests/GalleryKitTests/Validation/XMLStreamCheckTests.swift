import Testing
@testable import GalleryKit

/// `XMLStreamCheck` lets the SVG strip and the sitemap skip the tree-based validation, so it must
/// never pass a file on which that validation finds anything.
@Suite struct XMLStreamCheckTests {
    typealias Fixtures = ValidationFixtures

    static func passes(_ svg: [UInt8]) throws -> Bool {
        XMLStreamCheck.passesCarousel(svg, schema: try PageValidator.carouselSchema.get(), resolver: Fixtures.validator.resolver(for: "carousel.svg"))
    }

    static func findings(_ svg: [UInt8]) -> [Diagnostic] {
        Fixtures.validator.diagnoseSVG(svg, path: "carousel.svg")
    }

    /// The fixture strip with `count` tiles after its two (all pointing at the fixture's files).
    static func strip(extraTiles count: Int) -> [UInt8] {
        Fixtures.carousel { lines in
            let tile = lines[9...13].joined(separator: "\n")
            lines.insert(contentsOf: Array(repeating: tile, count: count), at: 17)
        }
    }

    @Test func passesTheFixtureStripAtAnySize() throws {
        for count in [0, 1, 500] {
            let svg = Self.strip(extraTiles: count)
            #expect(Self.findings(svg) == [])
            #expect(try Self.passes(svg), "\(count) extra tiles")
        }
    }

    /// One strip per rule, each breaking it once (line numbers as in `ValidationFixtures.carousel`).
    static let broken: [(why: String, edit: @Sendable (inout [String]) -> Void)] = [
        ("unclosed element", { $0[13] = "    <a>" }),
        ("undefined entity", { $0[2] = "  <title>A&nbsp;B</title>" }),
        ("schema: unknown element", { $0[10] = "      <circle r=\"1\"/>" }),
        ("schema: fractional coordinate", { $0[11] = $0[11].replacingOccurrences(of: "x=\"110\"", with: "x=\"110.5\"") }),
        ("schema: lower-case viewbox", { $0[1] = $0[1].replacingOccurrences(of: "viewBox=", with: "viewbox=") }),
        ("image without height", { $0[15] = $0[15].replacingOccurrences(of: " height=\"100\"", with: "") }),
        ("duplicate id", { $0[5] = "    <style id=\"tile-clip\">.highlight { fill: none; }</style>" }),
        ("broken image link", { $0[11] = $0[11].replacingOccurrences(of: "covers/a.svg", with: "covers/missing.svg") }),
        ("broken xlink", { $0[14] = "    <a xlink:href=\"albums/c/index.html\">" }),
        ("fragment naming no id", { $0[9] = "    <a href=\"#nowhere\" aria-label=\"x\">" }),
        ("link above the root", { $0[9] = "    <a href=\"../x.html\" aria-label=\"x\">" }),
        ("namespace warning", { $0[2] = "  <title xmlns:q=\"not a uri\">Albums</title>" }),
    ]

    @Test(arguments: broken.indices)
    func failsEveryStripTheFullValidationFaults(_ index: Int) throws {
        let (why, edit) = Self.broken[index]
        let svg = Fixtures.carousel(edit)
        #expect(!Self.findings(svg).isEmpty, "the tree-based validation should fault: \(why)")
        #expect(try !Self.passes(svg), "\(why)")
    }

    /// Random edits of the valid strip: whatever the tree-based validation faults, the streaming
    /// check fails too; and enough edits stay valid that passing is exercised as well.
    @Test func neverPassesAStripTheFullValidationFaults() throws {
        let original = Fixtures.carousel()
        let insertions: [[UInt8]] = [
            "<", ">", "&", "\"", "/", "#", " id=\"tile-clip\"", " id=\"n\"", " class=\"tile\"", " width=\"1\"", " height=\"1\"",
            " x=\"1.5\"", " href=\"#n\"", " href=\"#tile-clip\"", "<title>t</title>", "<desc>d</desc>", "<g>", "</g>",
            "<image href=\"covers/a.svg\" x=\"1\" y=\"1\" width=\"1\" height=\"1\"/>", "<image href=\"covers/b.svg\"/>", "&amp;", "&#38;",
            "<!-- c -->", "<![CDATA[<x>]]>", "\u{e9}", "\n", " xml:id=\"q\"",
        ].map { Array($0.utf8) }
        let (faulted, passedValid) = try Fixtures.fuzz(original, inserting: insertions, seed: 0x7376_6773_7472_6970, findings: Self.findings, passes: Self.passes)
        #expect(faulted > 300)
        #expect(passedValid > 50)
    }

    @Test func leavesAStripWithADocumentTypeToTheTree() throws {
        // A DTD can add defaults and entities the stream and the tree might not see alike.
        let svg = Fixtures.carousel { $0[0] += "\n<!DOCTYPE svg [<!ATTLIST image height CDATA \"100\">]>" }
        #expect(try !Self.passes(svg))
        #expect(Fixtures.validator.validateSVG(svg, path: "carousel.svg") == Self.findings(svg))
    }

    @Test func aSitemapPassesOnlyWhenItParsesWithoutAnIssue() {
        let sitemap = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>https://example.org/a/?x=1&amp;y=2</loc></url>\n</urlset>\n"
        #expect(XMLStreamCheck.parsesCleanly(Array(sitemap.utf8)))
        #expect(Fixtures.validator.validateWellFormed(Array(sitemap.utf8), path: "sitemap.xml") == [])
        let broken = [
            sitemap.replacingOccurrences(of: "</url>", with: ""),
            sitemap.replacingOccurrences(of: "&amp;", with: "&"),
            sitemap.replacingOccurrences(of: "&amp;", with: "&nbsp;"),
            sitemap.replacingOccurrences(of: "<urlset", with: "<!DOCTYPE urlset [<!ENTITY a \"b\">]>\n<urlset"),
            sitemap.replacingOccurrences(of: "<url>", with: "<url xmlns:q=\"not a uri\">"),
            "",
        ]
        for text in broken {
            #expect(!XMLStreamCheck.parsesCleanly(Array(text.utf8)), "\(text.debugDescription)")
        }
        // All but the DTD are faults the tree-based check reports; the DTD is only a doubt.
        for (index, text) in broken.enumerated() where index != 3 {
            #expect(!Fixtures.validator.validateWellFormed(Array(text.utf8), path: "sitemap.xml").isEmpty, "\(text.debugDescription)")
        }
    }
}
