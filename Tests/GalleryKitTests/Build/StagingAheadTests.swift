import Foundation
import Testing

@testable import GalleryKit

/// A cold build makes its staging folder, with every album's folder, while its covers are
/// thumbnailed; the render step takes it, and a build stopped before rendering removes it.
@Suite struct StagingAheadTests {
    static func starter() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "ahead-\(UUID().uuidString)", directoryHint: .isDirectory)
        _ = try StarterSite.write(into: folder)
        return folder
    }

    @Test func foldersMadeAheadTakeTheirPagesAndMissingOnesAreMade() throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "ahead-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let output = root.appending(path: "public", directoryHint: .isDirectory)
        let staging = try StagingArea(for: output, folders: ["albums", "albums/a", "albums/b"])
        var isFolder: ObjCBool = false
        for folder in ["albums/a", "albums/b"] {
            #expect(FileManager.default.fileExists(atPath: staging.folder.appending(path: folder).path, isDirectory: &isFolder) && isFolder.boolValue, "\(folder)")
        }
        try staging.stage(Array("a".utf8), as: "albums/a/index.html")
        try staging.stage(Array("deep".utf8), as: "page/2/deeper/index.html")
        try staging.stage(Array("top".utf8), as: "index.html")
        #expect(try staging.commit(into: output).moved == 3)
        #expect(try String(contentsOf: output.appending(path: "albums/a/index.html"), encoding: .utf8) == "a")
        #expect(try String(contentsOf: output.appending(path: "page/2/deeper/index.html"), encoding: .utf8) == "deep")
        #expect(try String(contentsOf: output.appending(path: "index.html"), encoding: .utf8) == "top")
    }

    /// A folder that cannot be made (a name longer than the file system takes) fails the staging
    /// area, and takes the half-made staging folder with it: no one else could discard it.
    @Test func aFolderThatCannotBeMadeLeavesNoStagingFolder() throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "ahead-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let output = root.appending(path: "public", directoryHint: .isDirectory)
        #expect(throws: AtomicFile.WriteError.self) {
            _ = try StagingArea(for: output, folders: ["albums", "albums/" + String(repeating: "x", count: 300)])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == [])
    }

    /// The steps before rendering start the staging folder only for a build that writes every
    /// page; one that stops before the render step leaves none behind.
    @Test func aColdBuildStagesAheadAndABuildStoppedBeforeRenderingLeavesNoStagingFolder() async throws {
        let folder = try Self.starter()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = SiteFolder(root: folder)
        var state = BuildState(options: BuildOptions(site: site))
        try await BuildStep.loadAlbums.body(&state, SilentObserver())
        BuildStep.stageAhead(&state)
        let ahead = try #require(state.stagingAhead)
        let staging = try await ahead.value
        let slugs = state.catalogue.entries.map(\.slug)
        #expect(slugs.count == 5)
        for slug in slugs {
            #expect(FileManager.default.fileExists(atPath: staging.folder.appending(path: "albums/\(slug)").path), "\(slug)")
        }
        staging.discard()
        // The load step holds the output folder's lock, which the builds below wait for.
        state.outputLock = nil
        // Stopped after the covers: the pipeline removes what was made ahead.
        let stopped = await BuildPipeline(steps: [.loadAlbums, .fetchCovers]).run(BuildOptions(site: site))
        #expect(stopped.stagingAhead == nil)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.contains { $0.contains("staging") }, "\(names)")
        // After a whole build, an incremental one (an album retitled) makes nothing ahead.
        #expect(await BuildPipeline().run(BuildOptions(site: site)).summary.succeeded)
        let archive = folder.appending(path: "content/albums.json")
        let text = try String(contentsOf: archive, encoding: .utf8)
        #expect(text.contains("American Pie"))
        try text.replacingOccurrences(of: "American Pie", with: "American Pie (Live)").write(to: archive, atomically: true, encoding: .utf8)
        var next = BuildState(options: BuildOptions(site: site))
        try await BuildStep.loadAlbums.body(&next, SilentObserver())
        #expect(!next.summary.upToDate && !next.previousManifest.entries.isEmpty)
        BuildStep.stageAhead(&next)
        #expect(next.stagingAhead == nil)
        next.outputLock = nil
    }
}
