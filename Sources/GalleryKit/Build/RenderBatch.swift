/// What one batch of outputs came to: manifest entries, findings and the unchanged count.
///
/// Entries are kept in a list and put in a dictionary once, at the end: at 100k albums, a
/// dictionary per batch merged into the total's hashed every path twice more.
struct RenderBatch: Sendable {
    var entries: [(path: String, entry: BuildManifest.Entry)] = []
    /// The entries of the outputs made again (not left in place), whose records may differ.
    var remade: [(path: String, entry: BuildManifest.Entry)] = []
    var findings: [Diagnostic] = []
    /// Findings in the files made from the albums, reported after the pages' findings.
    var laterFindings: [Diagnostic] = []
    var unchanged = 0
    var pagesUnchanged = 0
    /// Outputs the previous build did not make.
    var newOutputs = 0
    /// The segment maps of the files of segments, made or kept.
    var segmentMaps: [(String, SegmentMap)] = []
    /// The fragment maps of the index pages, made or kept.
    var pageMaps: [(String, FragmentMap)] = []
    /// The files of segments and the index pages spliced rather than made whole.
    var spliced: [String] = []
    /// The index pages checked without the tiles they copied.
    var checkedInPart: [String] = []
    /// The pages in place made again, as they may link to a file this build no longer makes.
    var rechecked: [String] = []
    /// The tiles the album pages' checks left out.
    var tilesLeftOut = 0

    mutating func record(_ path: String, _ outcome: OutputLedger.Outcome, isPage: Bool = false) {
        let entry = outcome.entry
        entries.append((path, entry))
        switch outcome {
        case .inPlace:
            break
        case .unchanged, .changed:
            remade.append((path, entry))
        }
        switch outcome {
        case .inPlace, .unchanged:
            unchanged += 1
            if isPage { pagesUnchanged += 1 }
        case .changed(_, let isNew):
            if isNew { newOutputs += 1 }
        }
    }

    mutating func merge(_ other: RenderBatch) {
        entries += other.entries
        remade += other.remade
        findings += other.findings
        laterFindings += other.laterFindings
        unchanged += other.unchanged
        pagesUnchanged += other.pagesUnchanged
        newOutputs += other.newOutputs
        segmentMaps += other.segmentMaps
        pageMaps += other.pageMaps
        checkedInPart += other.checkedInPart
        rechecked += other.rechecked
        tilesLeftOut += other.tilesLeftOut
        spliced += other.spliced
    }

    /// The manifest of every output recorded; of a path recorded twice, the later entry.
    func manifest() -> BuildManifest {
        var manifest = BuildManifest()
        manifest.entries.reserveCapacity(entries.count)
        for (path, entry) in entries { manifest.entries[path] = entry }
        return manifest
    }
}
