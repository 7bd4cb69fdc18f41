import Foundation
import Synchronization
import Testing
@testable import GalleryKit

@Suite struct ParallelTests {
    @Test(arguments: [(0, 3), (1, 3), (7, 1), (7, 3), (100, 3), (5, 16)])
    func onThreadsCallsEveryIndexOnceAndKeepsTheOrder(count: Int, threads: Int) async {
        let calls = Mutex([Int](repeating: 0, count: count))
        let finishedThreads = Mutex(0)
        let results = await Parallel.onThreads(count: count, threads: threads, finished: { finishedThreads.withLock { $0 += 1 } }) { index in
            calls.withLock { $0[index] += 1 }
            // Uneven work, so later indices often finish first.
            if index % 3 == 0 { usleep(UInt32(200 * (count - index))) }
            return index * index
        }
        #expect(results == (0..<count).map { $0 * $0 })
        #expect(calls.withLock { $0 } == Array(repeating: 1, count: count))
        // Every thread started says it is done before the results come back.
        #expect(finishedThreads.withLock { $0 } == min(threads, count))
    }

    /// The calls run at the same time on threads of their own: three calls that each wait until all
    /// three have started would never meet on Swift's cooperative pool of a two-core machine.
    @Test func onThreadsRunsBlockingCallsSideBySide() async {
        let started = Mutex(0)
        let met = await Parallel.onThreads(count: 3, threads: 3) { _ -> Bool in
            started.withLock { $0 += 1 }
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if started.withLock({ $0 }) == 3 { return true }
                usleep(1_000)
            }
            return false
        }
        #expect(met == [true, true, true])
    }
}
