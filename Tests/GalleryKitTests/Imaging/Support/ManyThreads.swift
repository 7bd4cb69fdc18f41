import CVipsShim
import Foundation
import Synchronization

@testable import GalleryKit

extension Thumbnailer {
    /// How many of `rounds` times `threads` threads at once made other thumbnails of `bytes` than
    /// `expected` (a failure counts as a mismatch): for the tests of what the shim shares between
    /// threads.
    func mismatches(of bytes: [UInt8], as specs: [ThumbnailSpec], expected: [[UInt8]], threads: Int = 4, rounds: Int) -> Int {
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<rounds {
                let made = try? thumbnails(of: bytes, as: specs)
                if made != expected { mismatches.withLock { $0 += 1 } }
            }
            Thumbnailer.threadFinished()
        }
        return mismatches.withLock { $0 }
    }
}

extension Thumbnailer {
    /// What ``thumbnails(of:as:)`` makes with libvips's own ways alone: the shim's direct paths
    /// turned off on this thread for the call, for the tests that compare them.
    func libvipsThumbnails(of bytes: [UInt8], as specs: [ThumbnailSpec]) throws(ThumbnailError) -> [[UInt8]] {
        gallery_shim_paths_set_enabled(0)
        defer { gallery_shim_paths_set_enabled(1) }
        return try thumbnails(of: bytes, as: specs)
    }
}
