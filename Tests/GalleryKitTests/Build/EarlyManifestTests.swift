import Foundation
import Testing
@testable import GalleryKit

/// The manifest is read before the build holds the output folder's lock: what it read must be
/// set aside when another build (or an adopted earlier record) changed the files meanwhile, or
/// the build would trust outputs that build had since rewritten.
@Suite struct EarlyManifestTests {
    struct Site {
        let folder = FileManager.default.temporaryDirectory.appending(path: "early-manifest-\(UUID().uuidString)")
        var output: URL { folder.appending(path: "public") }
        var cache: URL { folder.appending(path: ".gallery-cache") }
        var file: URL { BuildManifest.file(for: output, cache: cache) }

        func manifest(_ paths: [String]) -> BuildManifest {
            var manifest = BuildManifest()
            for (index, path) in paths.enumerated() {
                manifest.entries[path] = .init(inputKey: UInt64(index + 1), size: 10 * (index + 1), outputHash: UInt64(100 + index))
            }
            return manifest
        }
    }

    @Test func anUnchangedRecordIsTheOneReadEarly() throws {
        let site = Site()
        defer { try? FileManager.default.removeItem(at: site.folder) }
        try site.manifest(["index.html", "albums/a/index.html"]).save(to: site.file)
        let early = EarlyManifest.read(for: site.output, cache: site.cache)
        #expect(early.manifest.entries.count == 2)
        #expect(early.current() == early.manifest)
        #expect(early.current() == BuildManifest.load(for: site.output, cache: site.cache))
    }

    @Test func aRecordReplacedMeanwhileIsReadAgain() throws {
        let site = Site()
        defer { try? FileManager.default.removeItem(at: site.folder) }
        try site.manifest(["index.html", "albums/a/index.html"]).save(to: site.file)
        let early = EarlyManifest.read(for: site.output, cache: site.cache)
        // Another build held the lock meanwhile and wrote its record (by renaming a new file in).
        let newer = site.manifest(["index.html", "albums/b/index.html", "albums/c/index.html"])
        try newer.save(to: site.file)
        #expect(early.current().entries.keys.sorted() == ["albums/b/index.html", "albums/c/index.html", "index.html"])
        #expect(early.current() == BuildManifest.load(for: site.output, cache: site.cache))
    }

    @Test func aRecordThatAppearsOrGoesMeanwhileIsReadAgain() throws {
        let site = Site()
        defer { try? FileManager.default.removeItem(at: site.folder) }
        // None when read early (a first build, or an earlier record not yet adopted)...
        let early = EarlyManifest.read(for: site.output, cache: site.cache)
        #expect(early.manifest.entries.isEmpty)
        try site.manifest(["index.html"]).save(to: site.file)
        #expect(early.current().entries.keys.sorted() == ["index.html"])
        // ...and one removed meanwhile.
        let read = EarlyManifest.read(for: site.output, cache: site.cache)
        try FileManager.default.removeItem(at: site.file)
        #expect(read.current().entries.isEmpty)
    }

    /// A journal written meanwhile (a build that died while it changed the folder) makes the
    /// outputs it names untrusted, as a manifest read under the lock would have them.
    @Test func aJournalWrittenMeanwhileIsHeeded() throws {
        let site = Site()
        defer { try? FileManager.default.removeItem(at: site.folder) }
        try site.manifest(["index.html", "albums/a/index.html"]).save(to: site.file)
        let early = EarlyManifest.read(for: site.output, cache: site.cache)
        try BuildManifest.writeJournal(["albums/a/index.html"], to: BuildManifest.journal(of: site.file))
        let current = early.current()
        #expect(current.entries["albums/a/index.html"] == .untrusted)
        #expect(current.entries["index.html"] == early.manifest.entries["index.html"])
        #expect(current.stamp == nil)
    }
}
