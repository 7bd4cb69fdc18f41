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
        #expect(text.hasPrefix("gallery-manifest 1\nalbums/album-1/index.html\t"))
        #expect(text.contains("\nmax.html\tffffffffffffffff\t0\tffffffffffffffff\n"))
    }

    @Test func aMissingForeignOrDamagedFileGivesAnEmptyManifest() throws {
        let good = "gallery-manifest 1\na.html\t00000000000000ff\t12\t0000000000000001\n"
        #expect(BuildManifest.parse(Array(good.utf8))?.entries["a.html"] == .init(inputKey: 255, size: 12, outputHash: 1))
        #expect(BuildManifest.parse(Array((good + "\n\n").utf8))?.entries.count == 1, "blank lines are skipped")
        let damaged = [
            "",
            "gallery-manifest 2\na.html\t00000000000000ff\t12\t0000000000000001\n",
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
