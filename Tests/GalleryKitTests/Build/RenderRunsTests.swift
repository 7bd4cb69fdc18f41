import Testing

@testable import GalleryKit

/// The render step's runs of pages: every page once and in order, the first run short (it holds
/// the index pages), long runs while much is left, and short ones at the end.
@Suite struct RenderRunsTests {
    @Test(arguments: [(0, 2), (1, 1), (63, 2), (64, 2), (65, 4), (1_000, 2), (10_000, 2), (10_000, 16), (100_000, 2), (100_003, 3)])
    func everyPageOnceInOrder(_ count: Int, _ cores: Int) {
        let runs = BuildStep.runs(of: count, cores: cores)
        #expect(runs.flatMap { Array($0) } == Array(0..<count))
        #expect(runs.allSatisfy { !$0.isEmpty && $0.count <= 512 })
        if let first = runs.first { #expect(first.count == min(64, count)) }
        // The last runs are no longer than the first.
        #expect(runs.suffix(3).allSatisfy { $0.count <= 64 })
    }

    @Test func fewerRunsThanRunsOfSixtyFour() {
        // Each run starts its fragment cache empty: fewer runs, fewer pages whose every tile is
        // rendered and checked afresh.
        #expect(BuildStep.runs(of: 10_000, cores: 2).count == 53)
        #expect(BuildStep.runs(of: 100_000, cores: 2).count == 229)
        #expect(BuildStep.runs(of: 10_000, cores: 2).dropFirst().prefix(4).allSatisfy { $0.count == 512 })
    }
}
