import Testing
@testable import GalleryKit

@Suite struct ConcurrentValidationTests {
    typealias Fixtures = ValidationFixtures

    /// Page `index` of a 200-page run: valid ones, and each kind of finding, including fatal parse
    /// errors (which go through libxml2's per-thread error handler) and schema errors.
    static func file(_ index: Int) -> (bytes: [UInt8], path: String, isSVG: Bool) {
        let path = "albums/a/index.html"
        switch index % 6 {
        case 0: return (Fixtures.page(Fixtures.validBody), path, false)
        case 1: return (Fixtures.page(["<p id=\"p\(index)\">x</p>", "<p id=\"p\(index)\"><img src=\"../\(index)/\"/></p>"]), path, false)
        case 2: return (Fixtures.page(["<p>\(index)&nbsp;</p>"]), path, false)
        case 3: return (Fixtures.page(["<ul><li>\(index)</ul>"]), path, false)
        case 4: return (Fixtures.carousel { $0[15] = "      <image x=\"\(index)\"/>" }, "carousel.svg", true)
        default: return (Fixtures.carousel(), "carousel.svg", true)
        }
    }

    static func validate(_ index: Int) -> [Diagnostic] {
        let file = file(index)
        return file.isSVG
            ? Fixtures.validator.validateSVG(file.bytes, path: file.path)
            : Fixtures.validator.validateXHTML(file.bytes, path: file.path)
    }

    @Test func twoHundredPagesInParallelGiveTheSameDiagnosticsAsOneByOne() async {
        let sequential = (0..<200).map(Self.validate)
        let parallel = await withTaskGroup(of: (Int, [Diagnostic]).self) { group in
            for index in 0..<200 {
                group.addTask { (index, Self.validate(index)) }
            }
            var results = Array(repeating: [Diagnostic](), count: 200)
            for await (index, diagnostics) in group { results[index] = diagnostics }
            return results
        }
        #expect(parallel == sequential)
        #expect(sequential.filter(\.isEmpty).count == 67, "the valid page and the valid carousel, 34 + 33 times")
        #expect(sequential[2].first?.message.hasPrefix("Entity 'nbsp' not defined; ") == true)
        #expect(sequential[4].contains { $0.message == "Element image failed to validate attributes" })
    }
}
