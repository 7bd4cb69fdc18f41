import Foundation
import Testing

@testable import GalleryKit

/// The allocator set for builds keeps freed memory for the next large blocks; `gallery serve`,
/// which runs for hours, gives it back (after one download of an 800 MB video it stayed at
/// 300–600 MB).
@Suite(.serialized) struct AllocatorTuningTests {
    /// The resident memory of this process, in bytes (`VmRSS`).
    static func resident() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ").dropFirst().first ?? "")) * 1024
    }

    @Test func freedMemoryKeptForBuildsIsGivenBack() throws {
        AllocatorTuning.apply()
        let megabyte = 1 << 20
        // 256 blocks of a mebibyte, under the 32 MB from which blocks get pages of their own:
        // from the heap, and kept there once freed.
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0..<256 {
            let block = try #require(malloc(megabyte))
            memset(block, 1, megabyte)
            blocks.append(block)
        }
        let used = try Self.resident()
        blocks.forEach { free($0) }
        let kept = try Self.resident()
        // Kept: the tuning works as builds want it (without it this test proves nothing).
        #expect(used - kept < 64 * megabyte, "freed without being asked: \(used / megabyte) → \(kept / megabyte) MiB")
        AllocatorTuning.releaseFreed()
        let released = try Self.resident()
        #expect(kept - released > 160 * megabyte, "\(kept / megabyte) → \(released / megabyte) MiB")
    }
}
