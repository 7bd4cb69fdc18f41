import Foundation
import Testing
@testable import GalleryKit

/// Line numbers refer to the comments in `ValidationFixtures.carousel`.
@Suite struct SVGValidationTests {
    typealias Fixtures = ValidationFixtures

    @Test func theEmbeddedSchemaCompiles() throws {
        _ = try PageValidator.carouselSchema.get()
    }

    @Test func theSchemaAcceptsACorrectCarousel() {
        #expect(Fixtures.validator.validateSVG(Fixtures.carousel(), path: "carousel.svg") == [])
    }

    @Test func viewBoxIsCaseSensitive() {
        let svg = Fixtures.carousel { $0[1] = $0[1].replacingOccurrences(of: "viewBox=", with: "viewbox=") }
        let diagnostics = Fixtures.validator.validateSVG(svg, path: "carousel.svg")
        #expect(diagnostics.contains { $0.at == "2:1" && $0.message == "Invalid attribute viewbox for element svg" })
        #expect(diagnostics.allSatisfy { $0.severity == .error })
    }

    @Test func aTileImageWithoutHeightFailsTheSchemaAndTheTileCheck() {
        let svg = Fixtures.carousel { $0[15] = $0[15].replacingOccurrences(of: " height=\"100\"", with: "") }
        let diagnostics = Fixtures.validator.validateSVG(svg, path: "carousel.svg")
        #expect(diagnostics.map(\.at) == ["16:7", "16:7"])
        #expect(diagnostics.map(\.message).sorted() == [
            "Element image failed to validate attributes",
            "tile image has no height attribute (tiles need width and height so the strip keeps its layout while covers load)",
        ])
    }

    @Test func anUnknownElementInATileFailsTheSchema() {
        let svg = Fixtures.carousel { $0[10] = "      <circle r=\"1\"/>" }
        let diagnostics = Fixtures.validator.validateSVG(svg, path: "carousel.svg")
        #expect(diagnostics.first?.at == "11:7")
        #expect(diagnostics.first?.message == "Did not expect element circle there")
    }

    @Test func fractionalCoordinatesFailTheSchema() {
        let svg = Fixtures.carousel { $0[11] = $0[11].replacingOccurrences(of: "x=\"110\"", with: "x=\"110.5\"") }
        let messages = Fixtures.validator.validateSVG(svg, path: "carousel.svg").map(\.message)
        #expect(messages.contains("Type integer doesn't allow value '110.5'"))
    }

    @Test func checksTheCarouselsLinksAndIds() {
        let svg = Fixtures.carousel {
            $0[11] = $0[11].replacingOccurrences(of: "covers/a.svg", with: "covers/missing.svg")
            $0[5] = "    <style id=\"tile-clip\">.highlight { fill: none; }</style>"
        }
        let diagnostics = Fixtures.validator.validateSVG(svg, path: "carousel.svg")
        #expect(diagnostics.map(\.description) == [
            "carousel.svg:7:5: error: duplicate id 'tile-clip' (first used on line 6)",
            "carousel.svg:12:7: error: broken link to 'covers/missing.svg' (no such file in the output: covers/missing.svg)",
        ])
    }

    @Test func aMalformedSVGStopsAtItsParseErrors() {
        let svg = Fixtures.carousel { $0[13] = "    <a>" }
        let diagnostics = Fixtures.validator.validateSVG(svg, path: "carousel.svg")
        #expect(diagnostics.first?.message == "Opening and ending tag mismatch: a line 14 and g")
        #expect(!diagnostics.contains { $0.message.contains("Relax") || $0.message.contains("expect") })
    }

    @Test func otherSVGsOnlyNeedToBeWellFormed() {
        let cover = Array("<svg xmlns=\"http://www.w3.org/2000/svg\" viewbox=\"0 0 1 1\"><circle r=\"1\"/></svg>".utf8)
        #expect(Fixtures.validator.validateAnySVG(cover, path: "covers/a.svg") == [])
        #expect(Fixtures.validator.validateAnySVG(Array("<svg>".utf8), path: "covers/b.svg").count == 1)
        let renamed = Fixtures.carousel { $0[1] = $0[1].replacingOccurrences(of: "viewBox=", with: "viewbox=") }
        #expect(!Fixtures.validator.validateAnySVG(renamed, path: "strip.svg").isEmpty, "recognised by its tile group")
    }
}
