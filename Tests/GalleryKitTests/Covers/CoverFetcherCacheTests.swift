import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import GalleryKit

/// The fetcher and the cache together: what a second build, `--offline` and `--refresh` do, and
/// the limits on how many downloads run at once.
@Suite struct CoverFetcherCacheTests {
    let image = TestImages.png(width: 32, height: 32, seed: 7)

    func serveImage(_ rig: CoverTestRig, at path: String, etag: String = "\"v1\"") {
        let image = self.image
        rig.server.route(path) { request in
            if request.headers.first(name: "If-None-Match") == etag {
                return [.head(.notModified, HTTPHeaders([("ETag", etag)])), .end]
            }
            return .response(.ok, [("Content-Type", "image/png"), ("ETag", etag), ("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT")], body: image)
        }
    }

    @Test func aSecondBuildMakesNoRequests() async throws {
        try await CoverTestRig.run { rig in
            serveImage(rig, at: "/a.png")
            let first = try #require(await rig.fetch("/a.png").cover)
            let second = try #require(await rig.fetch("/a.png").cover)
            #expect(second == first)
            #expect(rig.server.requests(to: "/a.png") == 1)
            let url = rig.server.url("/a.png").absoluteString
            #expect(rig.observer.coverEvents.filter { $0 != .downloading(url: url, received: 0, expected: image.count) } == [
                .queued(url: url), .downloaded(url: url, bytes: image.count), .fromCache(url: url),
            ])
        }
    }

    @Test func offlineMakesNoRequestsAndReturnsTheSameFile() async throws {
        try await CoverTestRig.run { rig in
            serveImage(rig, at: "/a.png")
            let online = try #require(await rig.fetch("/a.png").cover)
            let offline = try #require(await rig.fetch("/a.png", mode: .offline).cover)
            #expect(rig.server.requests(to: "/a.png") == 1)
            #expect(offline.file == online.file)
            #expect(offline.contentHash == online.contentHash)
            #expect(try Data(contentsOf: offline.file) == Data(image))
        }
    }

    @Test func offlineWithoutACachedCopyFailsAndSaysToGoOnline() async throws {
        try await CoverTestRig.run { rig in
            serveImage(rig, at: "/a.png")
            let reason = try #require(await rig.fetch("/a.png", mode: .offline).reason)
            #expect(reason.contains("run the build once online"))
            #expect(rig.server.totalRequests == 0)
            rig.expectNothingStored()
        }
    }

    @Test func refreshSendsConditionalRequestsAndA304KeepsTheCachedCopy() async throws {
        try await CoverTestRig.run { rig in
            serveImage(rig, at: "/a.png")
            let first = try #require(await rig.fetch("/a.png").cover)
            let refreshed = try #require(await rig.fetch("/a.png", mode: .refresh).cover)
            let headers = rig.server.headers(of: "/a.png")
            try #require(headers.count == 2)
            #expect(headers[0].first(name: "If-None-Match") == nil)
            #expect(headers[1].first(name: "If-None-Match") == "\"v1\"")
            #expect(headers[1].first(name: "If-Modified-Since") == "Wed, 21 Oct 2015 07:28:00 GMT")
            #expect(refreshed == first)
            #expect(try Data(contentsOf: refreshed.file) == Data(image))
            #expect(rig.observer.coverEvents.last == .revalidated(url: rig.server.url("/a.png").absoluteString))
        }
    }

    @Test func refreshReplacesAChangedCover() async throws {
        try await CoverTestRig.run { rig in
            serveImage(rig, at: "/a.png", etag: "\"v1\"")
            let first = try #require(await rig.fetch("/a.png").cover)
            let newer = TestImages.png(width: 32, height: 32, seed: 99)
            rig.server.route("/a.png") { _ in .response(.ok, [("Content-Type", "image/png"), ("ETag", "\"v2\"")], body: newer) }
            let second = try #require(await rig.fetch("/a.png", mode: .refresh).cover)
            #expect(second.contentHash != first.contentHash)
            #expect(try Data(contentsOf: second.file) == Data(newer))
            // New bytes at the address were downloaded, as the event says.
            #expect(rig.observer.coverEvents.last == .downloaded(url: rig.server.url("/a.png").absoluteString, bytes: newer.count))
            // Later builds use the new copy.
            #expect(await rig.fetch("/a.png", mode: .offline).cover == second)
        }
    }

    @Test func aFailedRefreshKeepsTheCachedCopyWithAWarning() async throws {
        try await CoverTestRig.run { rig in
            serveImage(rig, at: "/a.png")
            let first = try #require(await rig.fetch("/a.png").cover)
            rig.server.route("/a.png") { _ in FaultyHTTPServer.text(.notFound, "gone") }
            let refreshed = await rig.fetch("/a.png", mode: .refresh)
            #expect(refreshed.cover == first)
            let url = rig.server.url("/a.png").absoluteString
            #expect(rig.observer.coverEvents.last == .fromCache(url: url))
            let warning = try #require(rig.observer.diagnostics.first)
            #expect(warning.severity == .warning)
            #expect(warning.path == url)
            #expect(warning.message.hasPrefix("could not revalidate the cached cover (HTTP 404 Not Found"))
        }
    }

    @Test func twentyAlbumsAskingAtOnceMakeOneRequest() async throws {
        try await CoverTestRig.run { rig in
            let image = self.image
            rig.server.route("/shared.png") { _ in
                [.pause(.milliseconds(200))] + .response(.ok, [("Content-Type", "image/png")], body: image)
            }
            let covers = try await rig.withFetcher { fetcher in
                try await withThrowingTaskGroup(of: Cover.self) { group in
                    for _ in 0..<20 {
                        group.addTask { try await fetcher.cover(for: rig.server.url("/shared.png"), mode: .useCache).get() }
                    }
                    return try await group.reduce(into: [Cover]()) { $0.append($1) }
                }
            }
            #expect(covers.count == 20)
            #expect(Set(covers).count == 1)
            #expect(rig.server.requests(to: "/shared.png") == 1)
            #expect(rig.observer.coverEvents.filter { if case .downloaded = $0 { true } else { false } }.count == 1)
        }
    }

    /// Three servers on three ports of one host: AsyncHTTPClient keeps a connection pool per
    /// port, so only the fetcher's own limits keep the total down.
    @Test(arguments: zip([3, 8], [8, 2]))
    func downloadsStayWithinTheLimits(concurrency: Int, perHost: Int) async throws {
        let log = FaultyHTTPServer.Log()
        var servers: [FaultyHTTPServer] = []
        for _ in 0..<3 { servers.append(try await FaultyHTTPServer.start(log: log)) }
        let image = self.image
        // Each answer waits until the limit's worth of requests are under way at once (however
        // long a loaded machine takes to open them); were the limit not reached, the waits end
        // after 30 s and are counted.
        let limit = min(concurrency, perHost)
        for index in 0..<8 {
            servers[0].route("/c\(index).png") { _ in
                [.hold(until: { log.state.withLock { $0.maxActive } >= limit }, limit: .seconds(30))]
                    + .response(.ok, [("Content-Type", "image/png")], body: image)
            }
        }
        var policy = CoverTestRig.fastPolicy
        policy.concurrency = concurrency
        policy.perHost = perHost
        let urls = servers.flatMap { server in (0..<8).map { server.url("/c\($0).png") } }
        try await CoverTestRig.run { rig in
            let fetched = await rig.withFetcher(policy) { fetcher in
                await withTaskGroup(of: Bool.self) { group in
                    for url in urls {
                        group.addTask { await fetcher.cover(for: url, mode: .useCache).cover != nil }
                    }
                    return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
            }
            #expect(fetched == 24)
        }
        for server in servers { try await server.stop() }
        #expect(servers[0].maxConcurrentRequests == limit)
        #expect(log.holdsThatTimedOut == 0)
    }

    @Test func requestsCarryAnHonestUserAgent() async throws {
        try await CoverTestRig.run { rig in
            serveImage(rig, at: "/a.png")
            _ = await rig.fetch("/a.png")
            #expect(rig.server.headers(of: "/a.png").first?.first(name: "User-Agent")
                == "gallery/\(GalleryVersion.current) (+https://github.com/gallery-ssg/gallery)")
        }
    }

    @Test func progressIsReportedAtMostOncePerInterval() async throws {
        try await CoverTestRig.run { rig in
            let big = TestImages.png(width: 300, height: 300)
            rig.server.route("/big.png") { _ in
                var headers = HTTPHeaders([("Content-Type", "image/png")])
                headers.add(name: "Content-Length", value: String(big.count))
                var steps: [FaultyHTTPServer.Step] = [.head(.ok, headers)]
                for start in stride(from: 0, to: big.count, by: 8192) {
                    steps.append(.body(Array(big[start..<min(start + 8192, big.count)])))
                }
                return steps + [.end]
            }
            var policy = CoverTestRig.fastPolicy
            policy.progressInterval = .seconds(60)
            #expect(await rig.fetch("/big.png", policy: policy).cover?.size == big.count)
            let url = rig.server.url("/big.png").absoluteString
            #expect(rig.observer.coverEvents == [
                .queued(url: url), .downloading(url: url, received: 0, expected: big.count), .downloaded(url: url, bytes: big.count),
            ])
        }
    }
}
