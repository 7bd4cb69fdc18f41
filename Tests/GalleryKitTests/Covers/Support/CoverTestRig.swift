import Foundation
import Synchronization
import Testing

@testable import GalleryKit

/// Collects the cover events a fetcher publishes.
final class RecordingObserver: BuildObserving {
    private let events = Mutex<[BuildEvent]>([])

    func receive(_ event: BuildEvent) {
        events.withLock { $0.append(event) }
    }

    /// The cover events so far, in order.
    var coverEvents: [CoverEvent] {
        events.withLock { events in
            events.compactMap { event -> CoverEvent? in
                if case .cover(let cover) = event { return cover }
                return nil
            }
        }
    }

    /// The diagnostics so far.
    var diagnostics: [Diagnostic] {
        events.withLock { events in
            events.compactMap { event -> Diagnostic? in
                if case .diagnostic(let diagnostic) = event { return diagnostic }
                return nil
            }
        }
    }
}

/// A temporary cache folder, a loopback server and fetchers with test-sized timeouts.
struct CoverTestRig {
    let server: FaultyHTTPServer
    let folder: URL
    let observer = RecordingObserver()

    /// Back-off shrunk so that every fault shows in well under a second, and timeouts that only
    /// a hang reaches.
    static var fastPolicy: CoverFetchPolicy {
        var policy = CoverFetchPolicy()
        // Far beyond anything a passing test waits: these timeouts are not to fire. A timeout is
        // retried, and the retry changes the reason ("gave up after 2 attempts") and the request
        // counts the tests check. The total timeout is wall-clock time for all of an attempt's
        // requests, and between two of them the attempt waits for one of the test run's two
        // shared threads, behind every test of the suite, which all start at once: in a local CI
        // run `endlessRedirectsStopAfterFive` took 103 s, its first attempt given up after four
        // of its six requests under a 30 s total timeout. Earlier, 2 s read and 5 s total
        // timeouts failed it the same way, and a loopback connect once took over 500 ms. A
        // refused connection fails at once whatever they are, and the timeout tests set their
        // own, smaller ones.
        policy.connectTimeout = .seconds(60)
        policy.readTimeout = .seconds(120)
        policy.totalTimeout = .seconds(300)
        policy.backoffBase = .milliseconds(10)
        policy.backoffCap = .milliseconds(40)
        policy.maxBodyBytes = 1_000_000
        return policy
    }

    /// Runs `body` with a fresh server and an empty cache folder, removed afterwards.
    static func run(_ body: (CoverTestRig) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory
            .appending(path: "gallery-cover-tests-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await FaultyHTTPServer.withServer { server in
            try await body(CoverTestRig(server: server, folder: folder))
        }
    }

    /// Runs `body` with a fetcher on this rig's cache folder (a new `CoverCache`, as a new build
    /// would open it), shut down afterwards.
    func withFetcher<T>(
        _ policy: CoverFetchPolicy = CoverTestRig.fastPolicy,
        _ body: (CoverFetcher) async throws -> T
    ) async rethrows -> T {
        try await CoverFetcher.withFetcher(cache: CoverCache(folder: folder), policy: policy, observer: observer, body)
    }

    /// Fetches one URL with a fresh fetcher.
    func fetch(_ path: String, mode: FetchMode = .useCache, policy: CoverFetchPolicy = CoverTestRig.fastPolicy) async -> Result<Cover, CoverFailure> {
        await withFetcher(policy) { await $0.cover(for: server.url(path), mode: mode) }
    }

    /// Every file under the cache folder, relative to it, sorted.
    var cacheFiles: [String] {
        let root = folder.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                files.append(path)
            }
        }
        return files.sorted()
    }

    /// The stored cover objects.
    var objects: [String] { cacheFiles.filter { $0.hasPrefix("objects/") } }

    /// Asserts that a failed fetch left nothing behind: no temporary file and no object.
    func expectNothingStored(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(cacheFiles.filter { $0.contains(".tmp-") }.isEmpty, "temporary files left: \(cacheFiles)", sourceLocation: sourceLocation)
        #expect(objects.isEmpty, "objects stored: \(objects)", sourceLocation: sourceLocation)
    }
}

extension Result where Success == Cover, Failure == CoverFailure {
    /// The failure's reason, or `nil` on success.
    var reason: String? {
        if case .failure(let failure) = self { failure.reason } else { nil }
    }

    /// The cover, or `nil` on failure.
    var cover: Cover? {
        try? get()
    }
}
