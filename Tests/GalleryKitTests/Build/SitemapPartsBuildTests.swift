import Foundation
import Testing

@testable import GalleryKit

/// A build past the sitemap's limit writes the parts and their index, and removes the parts
/// once the site is back under it. (The limit is lowered: a site of 50,000 pages is too large
/// for a test.)
@Suite struct SitemapPartsBuildTests {
    @Test func theBuildWritesThePartsAndRemovesThemWhenNoLongerNeeded() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sitemap-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try StarterSite.write(into: folder)
        let public_ = folder.appending(path: "public")
        func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: public_.appending(path: path))) }
        func build(limit: Int) async -> BuildState {
            var options = BuildOptions(site: SiteFolder(root: folder))
            options.sitemapLimit = limit
            return await BuildPipeline().run(options)
        }

        // The starter site: one index page and five albums, six URLs.
        var state = await build(limit: 4)
        #expect(state.summary.succeeded, "\(state.diagnostics)")
        #expect(SitemapTests.locations(try read("sitemap.xml")) == ["/sitemap-1.xml", "/sitemap-2.xml"])
        let parts = try ["sitemap-1.xml", "sitemap-2.xml"].map { SitemapTests.locations(try read($0)) }
        #expect(parts.map(\.count) == [4, 2])
        #expect(parts[0].first == "/")

        // Two albums deleted: four URLs, one file again, and the parts gone.
        let archive = folder.appending(path: "content/albums.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: archive)) as? [String: Any])
        json["albums"] = (json["albums"] as? [Any])?.prefix(3).map { $0 }
        try JSONSerialization.data(withJSONObject: json).write(to: archive)
        state = await build(limit: 4)
        #expect(state.summary.succeeded, "\(state.diagnostics)")
        #expect(SitemapTests.locations(try read("sitemap.xml")) == Array(parts.flatMap { $0 }.prefix(4)))
        #expect(!FileManager.default.fileExists(atPath: public_.appending(path: "sitemap-1.xml").path))
        #expect(!FileManager.default.fileExists(atPath: public_.appending(path: "sitemap-2.xml").path))
    }
}
