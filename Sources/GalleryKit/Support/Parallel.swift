import Foundation
import Synchronization

/// Bounded parallel work over index ranges, for CPU-bound steps (rendering, validation).
enum Parallel {
    /// Calls `body` on consecutive chunks of `0..<count`, at most one chunk per core at a time,
    /// and returns the results in chunk order.
    static func mapChunks<T: Sendable>(
        count: Int,
        chunkSize: Int = 64,
        _ body: @escaping @Sendable (Range<Int>) throws -> T
    ) async throws -> [T] {
        guard count > 0 else { return [] }
        let size = max(1, chunkSize)
        let chunks = stride(from: 0, to: count, by: size).map { $0..<min($0 + size, count) }
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return try await withThrowingTaskGroup(of: (Int, T).self) { group in
            var results = [T?](repeating: nil, count: chunks.count)
            var next = 0
            while next < min(width, chunks.count) {
                let index = next
                group.addTask { (index, try body(chunks[index])) }
                next += 1
            }
            while let (index, result) = try await group.next() {
                results[index] = result
                if next < chunks.count {
                    let index = next
                    group.addTask { (index, try body(chunks[index])) }
                    next += 1
                }
            }
            return results.compactMap { $0 }
        }
    }
}

extension Parallel {
    /// Calls `body` for every index of `0..<count` on `threads` threads of its own, outside Swift's
    /// cooperative pool, and returns the results in index order.
    ///
    /// For calls that block their thread, such as libvips's: the cooperative pool has one thread
    /// per core, and a thread blocked in a C call that is itself waiting (on a file, or on
    /// libvips's worker thread) leaves its core idle and starves every other task of the build.
    ///
    /// Each thread calls `finished` once it has no more work, before it exits.
    static func onThreads<T: Sendable>(
        count: Int,
        threads: Int,
        finished: @escaping @Sendable () -> Void = {},
        _ body: @escaping @Sendable (Int) -> T
    ) async -> [T] {
        guard count > 0 else { return [] }
        let width = max(1, min(threads, count))
        let work = ThreadWork<T>(count: count, threads: width)
        return await withCheckedContinuation { continuation in
            for _ in 0..<width {
                Thread {
                    while let index = work.claim() {
                        work.store(body(index), at: index)
                    }
                    finished()
                    if let results = work.finishThread() {
                        continuation.resume(returning: results)
                    }
                }.start()
            }
        }
    }
}

/// The shared state of `Parallel.onThreads`: the next index to claim, the results so far and the
/// threads still running. The last thread to finish hands the results back.
private final class ThreadWork<T: Sendable>: Sendable {
    private let state: Mutex<(next: Int, results: [T?], running: Int)>

    init(count: Int, threads: Int) {
        state = Mutex((0, Array(repeating: nil, count: count), threads))
    }

    func claim() -> Int? {
        state.withLock { state in
            guard state.next < state.results.count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    func store(_ result: T, at index: Int) {
        state.withLock { $0.results[index] = result }
    }

    /// Nil until the last thread calls it, then every result in index order.
    func finishThread() -> [T]? {
        state.withLock { state in
            state.running -= 1
            return state.running == 0 ? state.results.map { $0! } : nil
        }
    }
}
