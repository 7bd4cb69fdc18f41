import CVipsShim
import Foundation
import Synchronization

/// Thumbnails begun while the covers are still being fetched.
///
/// The fetch step queues each distinct cover as soon as it has it, and the queue makes its
/// thumbnails (or finds them in the cache) on threads of its own: libvips calls block their
/// thread, so they stay out of Swift's cooperative pool. A cold build with remote covers then
/// encodes the first covers while it downloads the rest, instead of after the last download.
/// While covers are still coming, the queue runs one thread fewer than there are cores (at least
/// one), leaving a core to the downloads, and those threads run at a lower priority (nice
/// ``queueingNice``), so a download's response seldom waits for a core behind an encoder: with
/// one core, or a cover server on the same machine, they used to take turns. Once
/// ``finish(adding:listening:)`` says no more will come, it starts threads at the usual priority,
/// up to one more than there are cores, as the thumbnails step did alone.
///
/// Most of the encoding runs on libvips's own workers, which take the nice value of the thread
/// that started them and which libvips keeps and reuses for the life of the process: so part of
/// the thumbnails step may run at nice 10 too. That changes nothing while gallery has the cores
/// to itself; when other programs want them, those workers give way.
///
/// What comes out does not depend on when a cover was queued: the thumbnail cache is addressed by
/// content, and the thumbnails step reads every outcome from here in its own order.
final class ThumbnailQueue: Sendable {
    /// A cover's thumbnails, one per spec, or why it has none.
    typealias Outcome = Result<[ThumbnailCache.Entry], ThumbnailError>
    /// Told of each cover's outcome, once, from the thread that made it.
    typealias Listener = @Sendable (Cover, Outcome) -> Void

    private struct State {
        /// The covers queued, in order; those before `next` were taken by a thread.
        var queued: [Cover] = []
        var next = 0
        /// The content hashes queued so far: a cover is made once however often it is queued.
        var known: Set<String> = []
        var outcomes: [String: Outcome] = [:]
        /// Outcomes that came before anyone listened, to tell the listener when it comes.
        var untold: [(Cover, Outcome)] = []
        var listener: Listener?
        var threads = 0
        /// Whether no more covers will come (``finish(adding:listening:)``).
        var closed = false
        /// Set by ``cancel()``: queued covers that no thread took are dropped.
        var cancelled = false
        /// Resumed when the queue is closed and the last thread has finished.
        var done: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    /// Where thumbnails are found and stored.
    let cache: ThumbnailCache
    /// The thumbnails each cover gets.
    let specs: [ThumbnailSpec]
    /// Threads while covers are still coming, and after.
    private let threadsWhileQueueing: Int
    private let threadsAfter: Int

    /// A queue making `specs` through `cache`, on `cores` − 1 threads while covers come and
    /// `cores` + 1 after.
    init(cache: ThumbnailCache, specs: [ThumbnailSpec], cores: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.cache = cache
        self.specs = specs
        threadsWhileQueueing = max(1, cores - 1)
        threadsAfter = max(1, cores) + 1
    }

    /// The queue of a build: the thumbnails `[thumbnails]` asks for, in the build's cache.
    static func forBuild(_ state: BuildState) -> ThumbnailQueue {
        let settings = state.config.thumbnails
        let cache = ThumbnailCache(
            folder: state.thumbnailCacheFolder,
            thumbnailer: Thumbnailer(maxPixels: settings.maxPixels)
        )
        return ThumbnailQueue(cache: cache, specs: settings.specs(tileSize: state.config.carousel.metrics.dimension))
    }

    /// Queues `cover`, unless a cover with the same content was queued before.
    func add(_ cover: Cover) {
        let start = state.withLock { state -> Int in
            guard !state.closed, Self.enqueue(cover, in: &state) else { return 0 }
            return Self.threadsToStart(&state, limit: threadsWhileQueueing)
        }
        startThreads(start, queueing: true)
    }

    /// The nice value of the threads started while covers are still coming (and of the libvips
    /// workers they start): below the downloads when both want a core, and the same as any other
    /// thread when nothing else runs.
    static let queueingNice: Int32 = 10

    /// Queues every cover of `covers` not queued yet, says no more will come, and returns once
    /// every cover's outcome is in. `listener` is told of each outcome that nobody was told of
    /// yet, those already in first; it may be called from other threads.
    func finish(adding covers: [Cover], listening listener: @escaping Listener) async {
        let (untold, start) = state.withLock { state -> ([(Cover, Outcome)], Int) in
            for cover in covers { Self.enqueue(cover, in: &state) }
            state.closed = true
            state.listener = listener
            defer { state.untold = [] }
            return (state.untold, Self.threadsToStart(&state, limit: threadsAfter))
        }
        for (cover, outcome) in untold { listener(cover, outcome) }
        startThreads(start, queueing: false)
        await threadsEnded()
    }

    /// Returns once the queue is closed and its last thread has finished.
    private func threadsEnded() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { state -> Bool in
                guard state.threads > 0 else { return true }
                state.done = continuation
                return false
            }
            if finished { continuation.resume() }
        }
    }

    /// The outcome of the cover with `contentHash`, once in; `nil` if it was never queued (or
    /// the queue was cancelled before a thread took it).
    func outcome(of contentHash: String) -> Outcome? {
        state.withLock { $0.outcomes[contentHash] }
    }

    /// Drops the covers no thread has taken and returns once those being made are done: for a
    /// build that stops before its thumbnails step. The process may exit once it returns (a
    /// thread still in libvips while `exit` ran the libraries' destructors could corrupt the heap).
    func cancel() async {
        state.withLock { state in
            state.cancelled = true
            state.closed = true
            state.next = state.queued.count
        }
        await threadsEnded()
    }

    /// Queues `cover` unless the queue was cancelled or a cover with its content was queued
    /// before; whether it did.
    @discardableResult
    private static func enqueue(_ cover: Cover, in state: inout State) -> Bool {
        guard !state.cancelled, state.known.insert(cover.contentHash).inserted else { return false }
        state.queued.append(cover)
        return true
    }

    /// How many threads to start so that the covers waiting have as many as they can use, up to
    /// `limit` in all; counts them as running.
    private static func threadsToStart(_ state: inout State, limit: Int) -> Int {
        let waiting = state.queued.count - state.next
        let start = max(0, min(limit - state.threads, waiting))
        state.threads += start
        return start
    }

    /// Starts `count` threads; those started while covers are still coming (`queueing`) lower
    /// their own priority first. (On Linux a nice value is a thread's own, and one that lowered it
    /// may not raise it again: so the threads of ``finish(adding:listening:)`` are new ones.)
    private func startThreads(_ count: Int, queueing: Bool) {
        for _ in 0..<count {
            Thread { [self] in
                // Named for `top -H`; a priority that cannot be lowered is left as it is.
                gallery_name_thread(queueing ? "gallery-thumbq" : "gallery-thumb")
                if queueing { _ = gallery_lower_thread_priority(Self.queueingNice) }
                work()
            }.start()
        }
    }

    /// A thread's life: take covers until none is waiting, then stop.
    private func work() {
        var done: CheckedContinuation<Void, Never>?
        while let cover = take(orStop: &done) {
            let outcome: Outcome
            do throws(ThumbnailError) {
                outcome = .success(try cache.thumbnails(of: cover, as: specs))
            } catch {
                outcome = .failure(error)
            }
            let listener = state.withLock { state -> Listener? in
                state.outcomes[cover.contentHash] = outcome
                if state.listener == nil { state.untold.append((cover, outcome)) }
                return state.listener
            }
            listener?(cover, outcome)
        }
        Thumbnailer.threadFinished()
        done?.resume()
    }

    /// The next waiting cover; or, when none is, `nil`, with the thread no longer counted (in the
    /// same step, so a cover queued just after starts a thread of its own) and, if it was the
    /// last thread of a closed queue, the continuation to resume in `done`.
    private func take(orStop done: inout CheckedContinuation<Void, Never>?) -> Cover? {
        let (cover, continuation) = state.withLock { state -> (Cover?, CheckedContinuation<Void, Never>?) in
            if state.next < state.queued.count {
                defer { state.next += 1 }
                return (state.queued[state.next], nil)
            }
            state.threads -= 1
            guard state.threads == 0, state.closed else { return (nil, nil) }
            defer { state.done = nil }
            return (nil, state.done)
        }
        done = continuation
        return cover
    }
}
