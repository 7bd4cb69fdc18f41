import Foundation
import Synchronization
import Testing
@testable import GalleryKit

@Suite struct PerThreadCopiesTests {
    /// Borrowers one after another share one copy; borrowers at the same time each get their own,
    /// and no copy is lent to two at once.
    @Test func eachBorrowerAtATimeHasACopyOfItsOwn() async {
        let made = Mutex(0)
        let copies = PerThreadCopies { made.withLock { $0 += 1; return $0 } }
        for _ in 0..<5 { copies.withCopy { _ in } }
        #expect(made.withLock { $0 } == 1)
        #expect(copies.freeCount == 1)

        // Three threads that each hold their copy until all three have one.
        let holding = Mutex(Set<Int>())
        let met = await Parallel.onThreads(count: 3, threads: 3) { _ -> Bool in
            copies.withCopy { copy in
                let fresh = holding.withLock { $0.insert(copy).inserted }
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline, holding.withLock({ $0.count }) < 3 { usleep(1_000) }
                return fresh
            }
        }
        #expect(met == [true, true, true])
        #expect(made.withLock { $0 } == 3)
        #expect(copies.freeCount == 3)
    }

    /// A copy comes back when the work that borrowed it throws.
    @Test func aCopyComesBackWhenItsWorkThrows() {
        struct Failure: Error {}
        let copies = PerThreadCopies { 7 }
        #expect(throws: Failure.self) { try copies.withCopy { _ in throw Failure() } }
        #expect(copies.freeCount == 1)
    }
}
