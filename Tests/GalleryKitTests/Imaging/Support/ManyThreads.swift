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
