import Foundation

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
