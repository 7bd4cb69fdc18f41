import CVipsShim
import Foundation
import Synchronization
import Testing

@testable import GalleryKit

/// Thumbnails begun while covers are still being fetched (``ThumbnailQueue``).
@Suite struct ThumbnailQueueTests {
    /// A folder of cover files and a thumbnail cache, removed afterwards.
    struct Rig {
        let folder = FileManager.default.temporaryDirectory.appending(path: "gallery-queue-\(UUID().uuidString)", directoryHint: .isDirectory)
        let specs = [ThumbnailSpec(size: 20), ThumbnailSpec(size: 40), ThumbnailSpec(size: 60)]

        var cache: ThumbnailCache {
            ThumbnailCache(folder: folder.appending(path: "thumbnails"), thumbnailer: Thumbnailer(maxPixels: 10_000_000))
        }

        /// A cover file holding `bytes`.
        func cover(_ name: String, _ bytes: [UInt8], kind: ImageKind) throws -> Cover {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appending(path: name)
            try Data(bytes).write(to: file)
            return Cover(file: file, kind: kind, contentHash: ContentHash.of(bytes), size: bytes.count)
        }

        /// Distinct covers, PNG and JPEG by turns.
        func covers(_ count: Int) throws -> [Cover] {
            try (0..<count).map { index in
                let kind: ImageKind = index % 2 == 0 ? .png : .jpeg
                return try cover("\(index).\(kind.fileExtension)", Thumbnailer.pattern(width: 50 + index, height: 70, kind: kind), kind: kind)
            }
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// Counts what a listener is told, by content hash.
    final class Tally: Sendable {
        let told = Mutex<[String: Int]>([:])
        func note(_ cover: Cover) { told.withLock { $0[cover.contentHash, default: 0] += 1 } }
    }

    /// Covers queued one by one, some twice, are each made once, with the thumbnails the cache
    /// makes of them alone; the listener hears of each once, whether it was made before or after
    /// it listened.
    @Test func everyCoverIsMadeOnceAndToldOnce() async throws {
        let rig = Rig()
        defer { rig.remove() }
        let covers = try rig.covers(8)
        let queue = ThumbnailQueue(cache: rig.cache, specs: rig.specs, cores: 2)
        for cover in covers.prefix(5) { queue.add(cover) }
        queue.add(covers[0])
        // The first ones are made before anyone listens (the fetch step is still fetching).
        for _ in 0..<3000 where queue.outcome(of: covers[1].contentHash) == nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(queue.outcome(of: covers[1].contentHash) != nil, "the queue makes covers before it is finished")
        let tally = Tally()
        await queue.finish(adding: covers + covers.prefix(2)) { cover, _ in tally.note(cover) }
        #expect(tally.told.withLock { $0 } == Dictionary(uniqueKeysWithValues: covers.map { ($0.contentHash, 1) }))

        let other = Rig()
        defer { other.remove() }
        for cover in covers {
            let entries = try #require(try? queue.outcome(of: cover.contentHash)?.get())
            #expect(entries.allSatisfy { $0.wasMade }, "made once, so never found in the cache")
            let alone = try other.cache.thumbnails(of: cover, as: rig.specs)
            #expect(entries.map(\.bytes) == alone.map(\.bytes))
        }
    }

    /// A cover that cannot be decoded is an outcome like any other: the queue goes on.
    @Test func aDamagedCoverFailsAlone() async throws {
        let rig = Rig()
        defer { rig.remove() }
        let good = try rig.covers(2)
        let png = try Thumbnailer.pattern(width: 200, height: 200, kind: .png)
        let damaged = try rig.cover("damaged.png", Array(png.prefix(png.count / 2)), kind: .png)
        let queue = ThumbnailQueue(cache: rig.cache, specs: rig.specs, cores: 1)
        queue.add(damaged)
        await queue.finish(adding: good) { _, _ in }
        guard case .failure(let error) = queue.outcome(of: damaged.contentHash) else {
            Issue.record("a damaged cover has thumbnails")
            return
        }
        #expect(error.description.lowercased().contains("png"), "\(error)")
        for cover in good {
            #expect((try? queue.outcome(of: cover.contentHash)?.get())?.count == 3)
        }
    }

    /// A build that stops before its thumbnails step cancels the queue: covers no thread took
    /// are not made, and finishing afterwards does not wait for them.
    @Test func aCancelledQueueDropsWhatNoThreadTook() async throws {
        let rig = Rig()
        defer { rig.remove() }
        let covers = try rig.covers(40)
        let queue = ThumbnailQueue(cache: rig.cache, specs: rig.specs, cores: 2)
        for cover in covers { queue.add(cover) }
        await queue.cancel()
        // Cancelling waits for the cover being made: no thread is left to add an outcome.
        let made = covers.count { queue.outcome(of: $0.contentHash) != nil }
        try await Task.sleep(for: .milliseconds(200))
        #expect(covers.count { queue.outcome(of: $0.contentHash) != nil } == made)
        await queue.finish(adding: covers) { _, _ in }
        #expect(covers.count { queue.outcome(of: $0.contentHash) != nil } == made)
        #expect(made < covers.count, "at most the covers the one thread had taken")
    }

    /// A build waits for libvips to finish loading before it returns, so the process never
    /// exits in the middle of loading it.
    @Test func loadsEndedWaitsForALoadUnderWay() async throws {
        let release = DispatchSemaphore(value: 0)
        let loaded = Mutex(false)
        Thumbnailer.startLoading {
            release.wait()
            loaded.withLock { $0 = true }
        }
        let waiter = Task { await Thumbnailer.loadsEnded(); return loaded.withLock { $0 } }
        try await Task.sleep(for: .milliseconds(100))
        #expect(!loaded.withLock { $0 })
        release.signal()
        #expect(await waiter.value, "loadsEnded returned before the load ended")
    }

    #if os(Linux)
    /// Thumbnails made while covers are still coming run below the downloads: the thread started
    /// then has a nice value of ``ThumbnailQueue/queueingNice``, as the kernel reports it, while
    /// the threads started once the queue is finished run at the usual priority.
    @Test func threadsStartedWhileCoversComeRunAtALowerPriority() async throws {
        let rig = Rig()
        defer { rig.remove() }
        // Large enough that the first cover is still being made when the queue is finished (and
        // small: in the full suite the niced thread gets little of the cores, as it should).
        let covers = try (0..<8).map { index in
            try rig.cover("big-\(index).png", Thumbnailer.pattern(width: 800 + index, height: 800, kind: .png), kind: .png)
        }
        // The priority the queue's threads inherit: 0, unless the tests themselves run niced.
        let usual = Int32(gallery_thread_priority())
        let queue = ThumbnailQueue(cache: rig.cache, specs: rig.specs, cores: 2)
        queue.add(covers[0])
        /// (thread name, nice value) of each outcome told on the thread that made it.
        let seen = Mutex<[(String, Int32)]>([])
        await queue.finish(adding: covers) { _, _ in
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            let nice = Int32(gallery_thread_priority())
            seen.withLock { $0.append((name, nice)) }
        }
        let told = seen.withLock { $0 }
        #expect(told.count == covers.count)
        let queueing = told.filter { $0.0 == "gallery-thumbq" }
        let after = told.filter { $0.0 == "gallery-thumb" }
        #expect(!queueing.isEmpty, "the thread started by add(_:) made a cover: \(told)")
        #expect(!after.isEmpty, "the threads started by finish made covers: \(told)")
        #expect(queueing.allSatisfy { $0.1 == max(usual, ThumbnailQueue.queueingNice) }, "\(told)")
        #expect(after.allSatisfy { $0.1 == usual }, "\(told)")
        #expect(gallery_thread_priority() == usual, "no other thread's priority changed")
    }
    #endif

    /// With nothing queued, finishing returns at once.
    @Test func anEmptyQueueFinishesAtOnce() async throws {
        let rig = Rig()
        let queue = ThumbnailQueue(cache: rig.cache, specs: rig.specs)
        await queue.finish(adding: []) { _, _ in Issue.record("nothing to tell") }
        let another = ThumbnailQueue(cache: rig.cache, specs: rig.specs)
        await another.finish(adding: []) { _, _ in }
        #expect(another.outcome(of: "0") == nil)
    }

    /// A build makes the thumbnails of the covers it has while it is still downloading others:
    /// the server holds one cover's answer until the other's thumbnails are in the cache, which
    /// a build that waited for every download before its first thumbnail never lets happen.
    @Test func aBuildMakesThumbnailsWhileItStillDownloads() async throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "gallery-queue-site-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appending(path: "content"), withIntermediateDirectories: true)
        let site = SiteFolder(root: root)
        let thumbnails = root.appending(path: ".gallery-cache/thumbnails").path
        try await FaultyHTTPServer.withServer { server in
            let first = try Thumbnailer.pattern(width: 120, height: 120, kind: .png)
            let second = try Thumbnailer.pattern(width: 130, height: 110, kind: .jpeg)
            server.route("/first.png") { _ in .response(.ok, [("Content-Type", "image/png")], body: first) }
            let firstMade = { @Sendable in
                let files = FileManager.default.enumerator(atPath: thumbnails)?.allObjects as? [String] ?? []
                return files.contains { $0.hasPrefix(ContentHash.of(first).prefix(2) + "/" + ContentHash.of(first)) && $0.hasSuffix(".webp") }
            }
            server.route("/second.jpg") { _ in
                [.hold(until: firstMade, limit: .seconds(60))] + .response(.ok, [("Content-Type", "image/jpeg")], body: second)
            }
            let albums = [("First", "/first.png"), ("Second", "/second.jpg")].map { title, path in
                #"{"title": "\#(title)", "artist": "A", "genre": "G", "year": 2000, "cover_url": "\#(server.url(path).absoluteString)"}"#
            }
            try Data(#"{"version": 1, "albums": [\#(albums.joined(separator: ", "))]}"#.utf8).write(to: site.archive)
            let state = await BuildPipeline().run(BuildOptions(site: site))
            #expect(state.summary.succeeded, "\(state.diagnostics)")
            #expect(state.summary.coversDownloaded == 2)
            #expect(state.summary.thumbnailsMade == 6)
            #expect(server.log.holdsThatTimedOut == 0, "the first cover's thumbnails were made only after the second cover came")
        }
    }
}
