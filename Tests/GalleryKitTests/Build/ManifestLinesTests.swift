import Foundation
import Testing
@testable import GalleryKit

/// After an edit the manifest's lines are the previous file's with the changed ones written
/// again: they must be byte for byte the lines written from the entries, and a file whose lines
/// are not as gallery writes them must not be patched.
@Suite struct ManifestLinesTests {
    /// The previous manifest as a build reads it: saved, then loaded from the file.
    static func saved(_ manifest: BuildManifest) throws -> BuildManifest {
        let folder = FileManager.default.temporaryDirectory.appending(path: "manifest-lines-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "x.manifest")
        try manifest.save(to: file)
        return BuildManifest.load(from: file)
    }

    @Test func changedLinesAreThoseWrittenFromTheEntries() throws {
        let previous = try Self.saved(BuildManifestTests.sample(count: 3_000))
        #expect(previous.readLines != nil)
        let paths = previous.sortedPaths
        // The first and the last line, and lines between, whose sizes gain and lose digits; one
        // changed twice (the later change holds), one "changed" to what it was.
        let changes: [(path: String, entry: BuildManifest.Entry)] = [
            (paths[1500], .init(inputKey: 7, size: 123_456_789_012, outputHash: 8)),
            (paths[0], .init(inputKey: 1, size: 0, outputHash: 2)),
            (paths[paths.count - 1], .init(inputKey: .max, size: 5, outputHash: 0)),
            (paths[17], .init(inputKey: 3, size: 4, outputHash: 5)),
            (paths[17], .init(inputKey: 6, size: 7, outputHash: 8)),
            (paths[2000], previous.entries[paths[2000]]!),
            (paths[18], .init(inputKey: 9, size: 10, outputHash: 11)),
        ]
        var edited = previous
        for (path, entry) in changes { edited.entries[path] = entry }
        let patched = try #require(previous.entryLines(changedBy: changes))
        // Compared whole, not printed: 300 KB of lines.
        let written = edited.entryLines().bytes
        let same = patched.bytes == written
        #expect(same, "\(patched.bytes.count) bytes patched, \(written.count) written")
        #expect(patched.everyPathKept)
        #expect(edited.entries[paths[17]]?.inputKey == 6)
        // No changes: the lines read, as they were.
        #expect(previous.entryLines(changedBy: [])?.bytes == previous.entryLines().bytes)
        // A path the lines do not hold cannot be patched in.
        #expect(previous.entryLines(changedBy: [("albums/new/index.html", .init(inputKey: 1, size: 1, outputHash: 1))]) == nil)
    }

    /// Lines gallery would not write as they are (still read, as before) are never patched: a
    /// size with a leading zero, a key or a hash of fifteen digits, a blank line between lines or
    /// after the last, paths out of order, and the lines of an earlier format.
    /// A cold build sorts its outputs' paths beside making the table of entries, and the lines
    /// are written in that order: each path once, in `<` order (non-ASCII and a path recorded
    /// twice among them), the same lines as sorted from the table.
    @Test func pathsSortedAheadWriteTheLinesSortedFromTheTable() throws {
        let sample = BuildManifestTests.sample(count: 2_000)
        var recorded = sample.entries.map { (path: $0.key, entry: $0.value) }.shuffled()
        recorded += [("albums/émile/index.html", .init(inputKey: 1, size: 2, outputHash: 3)), ("albums/zoë/index.html", .init(inputKey: 4, size: 5, outputHash: 6))]
        recorded.append((recorded[10].path, .init(inputKey: 7, size: 8, outputHash: 9)))
        var batch = RenderBatch()
        batch.entries = recorded
        var manifest = batch.manifest()
        let sorted = BuildManifest.sortedUniquePaths(of: recorded)
        #expect(sorted.count == manifest.entries.count && Set(sorted) == Set(manifest.entries.keys))
        #expect(zip(sorted, sorted.dropFirst()).allSatisfy { $0 < $1 })
        let fromTable = manifest.entryLines().bytes
        manifest.sortedPaths = sorted
        let inOrder = manifest.entryLines().bytes
        let same = inOrder == fromTable
        #expect(same, "\(inOrder.count) bytes in the sorted order, \(fromTable.count) sorted from the table")
        #expect(manifest.sortedEntries().map(\.value) == sorted.map { manifest.entries[$0]! })
    }

    @Test func linesNotAsWrittenAreNotPatched() throws {
        let header = "gallery-manifest 3\n"
        let good = "0000000000000001\t12\t0000000000000002\ta.html\n0000000000000003\t4\t0000000000000004\tb.html\n"
        #expect(BuildManifest.parse(Array((header + good).utf8))?.readLines?.starts == [19, 19 + 44, 19 + 44 + 43])
        for variant in [
            "0000000000000001\t012\t0000000000000002\ta.html\n0000000000000003\t4\t0000000000000004\tb.html\n",
            "000000000000001\t12\t0000000000000002\ta.html\n0000000000000003\t4\t0000000000000004\tb.html\n",
            "0000000000000001\t12\t000000000000002\ta.html\n0000000000000003\t4\t0000000000000004\tb.html\n",
            "0000000000000001\t12\t0000000000000002\ta.html\n\n0000000000000003\t4\t0000000000000004\tb.html\n",
            "0000000000000003\t4\t0000000000000004\tb.html\n0000000000000001\t12\t0000000000000002\ta.html\n",
            "0000000000000001\t12\t0000000000000002\ta.html\n0000000000000003\t4\t0000000000000004\tb.html\n\n",
        ] {
            let manifest = try #require(BuildManifest.parse(Array((header + variant).utf8)))
            #expect(manifest.entries.count == 2)
            #expect(manifest.readLines == nil, "\(variant.debugDescription)")
            #expect(manifest.entryLines(changedBy: []) == nil)
        }
        // Nor those of an earlier format, whose lines start with their path.
        let former = "gallery-manifest 2\na.html\t0000000000000001\t12\t0000000000000002\n"
        #expect(BuildManifest.parse(Array(former.utf8))?.readLines == nil)
    }

    /// A journal left by a build that stopped marks outputs untrusted: the lines read no longer
    /// say what the entries do.
    @Test func aJournalSetsTheLinesReadAside() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "manifest-lines-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appending(path: "public")
        let cache = folder.appending(path: ".gallery-cache")
        let file = BuildManifest.file(for: output, cache: cache)
        let manifest = BuildManifestTests.sample(count: 100)
        try manifest.save(to: file)
        #expect(BuildManifest.load(for: output, cache: cache).readLines != nil)
        try BuildManifest.writeJournal([manifest.entries.keys.sorted()[3]], to: BuildManifest.journal(of: file))
        let loaded = BuildManifest.load(for: output, cache: cache)
        #expect(loaded.readLines == nil)
        #expect(loaded.entryLines(changedBy: []) == nil)
    }
}
