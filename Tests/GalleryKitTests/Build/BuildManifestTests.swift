import Foundation
import Testing
@testable import GalleryKit

@Suite struct BuildManifestTests {
    static func sample(count: Int) -> BuildManifest {
        var random = SeededGenerator(seed: 42)
        var manifest = BuildManifest()
        for index in 0..<count {
            let path = index % 7 == 0 ? "albums/ünïcode & spaces \(index)/index.html" : "albums/album-\(index)/index.html"
            manifest.entries[path] = .init(inputKey: random.next(), size: Int(random.next() % 1_000_000_000), outputHash: random.next())
        }
        manifest.entries["zero.html"] = .init(inputKey: 0, size: 0, outputHash: 0)
        manifest.entries["max.html"] = .init(inputKey: .max, size: 0, outputHash: .max)
        manifest.entries["assets/a\ttab.txt"] = .init(inputKey: 1, size: 2, outputHash: 3)
        manifest.stamp = BuildStamp(inputs: random.next(), watched: [
            "/site/content/covers/a.png": FileStamp(size: 445, modified: 1_763_900_000_123_456_789, changed: -1, inode: .max),
            "/site/content/cövers/with\ttab & space.svg": FileStamp(size: 0, modified: 0, changed: 0, inode: 0),
        ], counts: .init(albums: count, pages: count + 2, coversLocal: 3, coversRemote: 4, thumbnails: 5))
        return manifest
    }

    @Test func whatIsSavedLoadsBackTheSame() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "manifest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "builds/x.manifest")
        let manifest = Self.sample(count: 2_000)
        try manifest.save(to: file)
        #expect(BuildManifest.load(from: file) == manifest)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix("gallery-manifest 3\n/stamp\t"))
        #expect(text.contains("\t2000\t2002\t3\t4\t5\n/watch\t445\t"))
        #expect(text.contains("\n/watch\t0\t0000000000000000\t0000000000000000\t0000000000000000\t/site/content/cövers/with\ttab & space.svg\n"))
        // Paths end their lines, so a tab in one is kept.
        #expect(text.contains("\n0000000000000001\t2\t0000000000000003\tassets/a\ttab.txt\n"))
        #expect(text.hasSuffix("\nffffffffffffffff\t0\tffffffffffffffff\tmax.html\n0000000000000000\t0\t0000000000000000\tzero.html\n"))
    }

    /// An edit's manifest holds the same paths as the one read: it writes them in the order read
    /// rather than sorting them again, and the file is the same as a sorted one. Another set of
    /// paths, or a file not in order (a hand edit), is sorted.
    @Test func theOrderReadIsKeptForTheSamePathsOnly() throws {
        let manifest = Self.sample(count: 500)
        let read = try #require(BuildManifest.parse(manifest.encoded()))
        #expect(read.sortedPaths == manifest.entries.keys.sorted())
        var edited = read
        edited.entries["albums/album-3/index.html"]?.outputHash = 7
        #expect(edited.sortedEntries().map(\.key) == read.sortedPaths)
        var fresh = edited
        fresh.sortedPaths = []
        #expect(edited.encoded() == fresh.encoded())
        // A path more and one fewer: the same count, another set.
        var other = edited
        other.entries["albums/album-3/index.html"] = nil
        other.entries["aaa.html"] = .init(inputKey: 1, size: 1, outputHash: 1)
        #expect(other.sortedEntries().map(\.key) == other.entries.keys.sorted())
        // A file whose lines are out of order keeps no order, and still loads.
        var text = String(decoding: manifest.encoded(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let last = text.count - 2
        text.swapAt(last, last - 1)
        let shuffled = try #require(BuildManifest.parse(Array(text.joined(separator: "\n").utf8)))
        #expect(shuffled.sortedPaths.isEmpty)
        #expect(shuffled == manifest)
        #expect(shuffled.encoded() == manifest.encoded())
    }

    /// A build reads the stamp's inputs alone first: when they differ from its own, the stamp
    /// cannot hold, and the whole manifest is read while the albums are decoded.
    @Test func theStampsInputsAreReadFromTheFirstLinesAlone() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "manifest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "builds/x.manifest")
        var manifest = Self.sample(count: 50)
        try manifest.save(to: file)
        #expect(BuildManifest.stampInputs(in: file) == manifest.stamp?.inputs)
        manifest.stamp?.inputs = 0xF
        try manifest.save(to: file)
        #expect(BuildManifest.stampInputs(in: file) == 0xF)
        manifest.stamp = nil
        try manifest.save(to: file)
        #expect(BuildManifest.stampInputs(in: file) == nil)
        for text in ["", "gallery-manifest 3\n/stamp\t00000000000000ff", "gallery-manifest 2\n/stamp\t00000000000000ff\t1\t2\t3\t4\t5\n", "gallery-manifest 3\n/stamp\t0000000000000xff\t1\n"] {
            try Data(text.utf8).write(to: file)
            #expect(BuildManifest.stampInputs(in: file) == nil, "\(text)")
        }
        #expect(BuildManifest.stampInputs(in: folder.appending(path: "none.manifest")) == nil)
        // A named pipe in its place is no stamp, at once (a plain open waits for a writer).
        try FileManager.default.removeItem(at: file)
        #expect(mkfifo(file.path, 0o600) == 0)
        #expect(BuildManifest.stampInputs(in: file) == nil)
        #expect(BuildManifest.load(from: file) == BuildManifest())
    }

    @Test func aPathThatCannotBeKeptOnOneLineLeavesNoStamp() {
        var manifest = Self.sample(count: 3)
        manifest.stamp?.watched["/site/content/covers/new\nline.png"] = FileStamp(size: 1, modified: 2, changed: 3, inode: 4)
        var expected = manifest
        expected.stamp = nil
        #expect(BuildManifest.parse(manifest.encoded()) == expected)
    }

    /// An output path with a newline (an asset's file name can have one) is left out, so its file
    /// is written again by the next build, and no stamp vouches for it being in place.
    /// A line feed alone or after a carriage return (one `Character` in Swift) both end a line.
    @Test(arguments: ["assets/new\nline.txt", "assets/windows\r\nline.txt"])
    func anOutputPathThatCannotBeKeptOnOneLineIsLeftOutWithTheStamp(path: String) throws {
        var manifest = Self.sample(count: 3)
        manifest.entries[path] = .init(inputKey: 1, size: 2, outputHash: 3)
        let read = try #require(BuildManifest.parse(manifest.encoded()))
        var expected = manifest
        expected.entries[path] = nil
        expected.stamp = nil
        #expect(read == expected)
    }

    @Test func aManifestOfTheFormerFormatIsReadWithoutAStamp() throws {
        let former = "gallery-manifest 1\na.html\t00000000000000ff\t12\t0000000000000001\n"
        let manifest = try #require(BuildManifest.parse(Array(former.utf8)))
        #expect(manifest.entries == ["a.html": .init(inputKey: 255, size: 12, outputHash: 1)])
        #expect(manifest.stamp == nil)
        #expect(BuildManifest.parse(Array((former + "/stamp\t00000000000000ff\t1\t2\t3\t4\t5\n").utf8))?.stamp?.counts.thumbnails == 5)
        // Format 2 put the path first too.
        let second = "gallery-manifest 2\n/stamp\t00000000000000ff\t1\t2\t3\t4\t5\na.html\t00000000000000ff\t12\t0000000000000001\n"
        let read = try #require(BuildManifest.parse(Array(second.utf8)))
        #expect(read.entries == ["a.html": .init(inputKey: 255, size: 12, outputHash: 1)])
        #expect(read.stamp?.counts.albums == 1)
    }

    /// A cache restored from elsewhere (CI's fallback key) is not trusted to name files: a path
    /// that leads out of the output folder, which the write step would delete as "gone", makes
    /// the whole manifest void.
    @Test(arguments: ["../../victim", "albums/../../x", "/etc/passwd", "a//b.html", "./a.html", "albums/.", "a\u{0}b", "..", ".", "a/..", "albums/", "a.html\u{0}"])
    func aPathOutOfTheOutputFolderVoidsTheManifest(path: String) {
        #expect(BuildManifest.parse(Array("gallery-manifest 3\n00000000000000ff\t12\t0000000000000001\t\(path)\n".utf8)) == nil)
        #expect(BuildManifest.parse(Array("gallery-manifest 3\n00000000000000ff\t12\t0000000000000001\t.well-known/a..b\n".utf8)) != nil)
    }

    /// Names that only look like a climb are files of the output folder, and are kept.
    @Test(arguments: ["...", "..a/b", "a/.b", "a/b..", ".x/..y/z.html", "a"])
    func aNameWithDotsInsideTheOutputFolderIsKept(path: String) {
        let read = BuildManifest.parse(Array("gallery-manifest 3\n00000000000000ff\t12\t0000000000000001\t\(path)\n".utf8))
        #expect(read?.entries[path] == .init(inputKey: 255, size: 12, outputHash: 1))
    }

    /// One folder reached by two paths has one manifest, before and after it exists.
    @Test func aFolderReachedThroughALinkHasOneManifest() throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "manifest-link-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appending(path: "site"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: root.appending(path: "link"), withDestinationURL: root.appending(path: "site"))
        let cache = root.appending(path: "cache")
        let direct = root.appending(path: "site/public")
        let linked = root.appending(path: "link/public")
        #expect(BuildManifest.file(for: direct, cache: cache) == BuildManifest.file(for: linked, cache: cache), "before the folder exists")
        try FileManager.default.createDirectory(at: direct, withIntermediateDirectories: true)
        #expect(BuildManifest.file(for: direct, cache: cache) == BuildManifest.file(for: linked, cache: cache))
        #expect(BuildManifest.file(for: root.appending(path: "link/./public/"), cache: cache) == BuildManifest.file(for: direct, cache: cache))
        #expect(BuildManifest.file(for: root.appending(path: "site/other"), cache: cache) != BuildManifest.file(for: direct, cache: cache))
    }

    /// An output in the cache's folder is named by its path from there, so a site moved with its
    /// cache keeps its record; one elsewhere by its whole path. The record a gallery before kept
    /// under the whole path is moved to the new name once, with its segment maps and journal.
    @Test func aRecordIsNamedFromTheCachesFolderAndAnEarlierOneIsAdopted() throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "manifest-moved-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["a", "b"] { try FileManager.default.createDirectory(at: root.appending(path: "\(name)/public"), withIntermediateDirectories: true) }
        let inA = BuildManifest.file(for: root.appending(path: "a/public"), cache: root.appending(path: "a/.gallery-cache"))
        let inB = BuildManifest.file(for: root.appending(path: "b/public"), cache: root.appending(path: "b/.gallery-cache"))
        #expect(inA.lastPathComponent == inB.lastPathComponent)
        let outside = root.appending(path: "b/public")
        #expect(BuildManifest.file(for: outside, cache: root.appending(path: "a/.gallery-cache")).lastPathComponent != inA.lastPathComponent)
        // Two sites whose .gallery-cache links to one shared cache keep a record each.
        let shared = root.appending(path: "shared-cache")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        for name in ["a", "b"] { try FileManager.default.createSymbolicLink(at: root.appending(path: "\(name)/.linked-cache"), withDestinationURL: shared) }
        #expect(BuildManifest.file(for: root.appending(path: "a/public"), cache: root.appending(path: "a/.linked-cache"))
            != BuildManifest.file(for: root.appending(path: "b/public"), cache: root.appending(path: "b/.linked-cache")))
        // An earlier gallery's record, by the whole path.
        let cache = root.appending(path: "a/.gallery-cache"), output = root.appending(path: "a/public")
        let earlier = BuildManifest.earlierFile(for: output, cache: cache)
        #expect(earlier != inA)
        try FileManager.default.createDirectory(at: earlier.deletingLastPathComponent(), withIntermediateDirectories: true)
        for kind in ["manifest", "segments", "base-url"] { try Data(kind.utf8).write(to: earlier.deletingPathExtension().appendingPathExtension(kind)) }
        BuildManifest.adoptEarlierRecord(for: output, cache: cache)
        #expect(try String(contentsOf: inA, encoding: .utf8) == "manifest")
        #expect(try String(contentsOf: inA.deletingPathExtension().appendingPathExtension("segments"), encoding: .utf8) == "segments")
        #expect(try String(contentsOf: inA.deletingPathExtension().appendingPathExtension("base-url"), encoding: .utf8) == "base-url")
        #expect(!FileManager.default.fileExists(atPath: earlier.path))
        // Never over a record of its own.
        try Data("older".utf8).write(to: earlier)
        BuildManifest.adoptEarlierRecord(for: output, cache: cache)
        #expect(try String(contentsOf: inA, encoding: .utf8) == "manifest")
    }

    @Test func aMissingForeignOrDamagedFileGivesAnEmptyManifest() throws {
        let good = "gallery-manifest 1\na.html\t00000000000000ff\t12\t0000000000000001\n"
        #expect(BuildManifest.parse(Array(good.utf8))?.entries["a.html"] == .init(inputKey: 255, size: 12, outputHash: 1))
        #expect(BuildManifest.parse(Array((good + "\n\n").utf8))?.entries.count == 1, "blank lines are skipped")
        let damaged = [
            "",
            "gallery-manifest 4\n00000000000000ff\t12\t0000000000000001\ta.html\n",
            "gallery-manifest 3\na.html\t00000000000000ff\t12\t0000000000000001\n",
            "gallery-manifest 3\n00000000000000ff\t12\t0000000000000001\t\n",
            "gallery-manifest 3\n00000000000000ff\t12\t0000000000000001\n",
            "gallery-manifest 2\n/stamp\t00000000000000ff\t1\t2\t3\t4\n",
            "gallery-manifest 2\n/stamp\t00000000000000ff\t1\t2\t3\t4\t5\n/stamp\t00000000000000ff\t1\t2\t3\t4\t5\n",
            "gallery-manifest 2\n/watch\t1\t0000000000000002\t0000000000000003\t0000000000000004\n",
            "gallery-manifest 2\n/watch\t1\t0000000000000002\t0000000000000003\t/a.png\n",
            "gallery-manifest 2\n/other\tthing\n",
            "gallery-manifest 2\n/stamp\n",
            "a.html\t00000000000000ff\t12\t0000000000000001\n",
            "gallery-manifest 1\na.html\t00000000000000ff\t12\n",
            "gallery-manifest 1\na.html\t00000000000000ff\t12\t0000000000000001",
            "gallery-manifest 1\na.html\t00000000000000ff\t12\t0000000000000001\textra\n",
            "gallery-manifest 1\na.html\t00000000000000fg\t12\t0000000000000001\n",
            "gallery-manifest 1\na.html\t00000000000000ff\t-12\t0000000000000001\n",
            "gallery-manifest 1\na.html\t\t12\t0000000000000001\n",
            "gallery-manifest 1\na.html\t100000000000000ff\t12\t0000000000000001\n",
            "gallery-manifest 1\n\t00000000000000ff\t12\t0000000000000001\n",
            "gallery-manifest 1\na.html\n",
        ]
        for text in damaged {
            #expect(BuildManifest.parse(Array(text.utf8)) == nil, "\(text.debugDescription)")
        }
        let folder = FileManager.default.temporaryDirectory.appending(path: "manifest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(BuildManifest.load(from: folder.appending(path: "none.manifest")) == BuildManifest())
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(damaged[6].utf8).write(to: folder.appending(path: "bad.manifest"))
        #expect(BuildManifest.load(from: folder.appending(path: "bad.manifest")) == BuildManifest())
    }
}
