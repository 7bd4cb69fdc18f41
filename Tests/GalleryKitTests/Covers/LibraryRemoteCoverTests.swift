import Foundation
import Testing

@testable import GalleryKit

/// The facade hands out covers from files, the cache and the network alike.
@Suite struct LibraryRemoteCoverTests {
    func makeSite() throws -> SiteFolder {
        let root = FileManager.default.temporaryDirectory
            .appending(path: "gallery-cover-site-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: root.appending(path: "content/covers"), withIntermediateDirectories: true)
        try Data(TestImages.starterSVG()).write(to: root.appending(path: "content/covers/local.svg"))
        return SiteFolder(root: root)
    }

    func album(_ coverURL: String) -> Album {
        Album(title: "Best of Bowie", artist: "David Bowie", genre: "Pop", year: 1992, coverURL: coverURL)
    }

    @Test func remoteAndLocalCoversComeThroughTheSameDoor() async throws {
        let site = try makeSite()
        defer { try? FileManager.default.removeItem(at: site.root) }
        try await FaultyHTTPServer.withServer { server in
            let svg = try TestImages.starterSVG("american-pie")
            server.route("/pie.svg") { _ in .response(.ok, [("Content-Type", "image/svg+xml")], body: svg) }
            let remote = album(server.url("/pie.svg").absoluteString)
            let (local, fetched) = await Library.withRemoteCovers(site: site, policy: CoverTestRig.fastPolicy) { library in
                (await library.cover(for: self.album("covers/local.svg")), await library.cover(for: remote))
            }
            #expect(local.cover?.kind == .svg)
            let cover = try #require(fetched.cover)
            #expect(cover.kind == .svg)
            #expect(try Data(contentsOf: cover.file) == Data(svg))
            #expect(cover.file.path.hasPrefix(CoverCache.defaultFolder(for: site).path + "/objects/"))

            // The next build, offline, gets the same cover without a request.
            let again = await Library.withRemoteCovers(site: site, mode: .offline) { await $0.cover(for: remote) }
            #expect(again.cover == cover)
            #expect(server.requests(to: "/pie.svg") == 1)
        }
    }

    @Test func failuresNameTheAlbumsCoverURL() async throws {
        let site = try makeSite()
        defer { try? FileManager.default.removeItem(at: site.root) }
        try await FaultyHTTPServer.withServer { server in
            let written = "  " + server.url("/gone.png").absoluteString
            let result = await Library.withRemoteCovers(site: site, policy: CoverTestRig.fastPolicy) {
                await $0.cover(for: self.album(written))
            }
            let reason = try #require(result.reason)
            #expect(result == .failure(CoverFailure(url: written, reason: reason)))
            #expect(reason.hasPrefix("HTTP 404 Not Found"))
        }
    }

    @Test func withoutAFetcherRemoteCoversFailWithAHint() async throws {
        let site = try makeSite()
        defer { try? FileManager.default.removeItem(at: site.root) }
        let result = await Library(site: site).cover(for: album("https://covers.example/a.png"))
        #expect(result.reason?.contains("download the image into content/") == true)
    }
}
