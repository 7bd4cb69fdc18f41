import Synchronization

/// Passes events on to another observer while counting cover outcomes, and keeps back the
/// diagnostics the cover fetcher publishes on its own (a failed `--refresh`, an unwritable cache
/// index): the covers step reports them, naming the albums a cover's belongs to, so the
/// build's summary, warning count and `--strict` see them.
final class CoverTally: BuildObserving {
    struct Counts: Sendable {
        var downloaded = 0
        var fromCache = 0
        var revalidated = 0
        var diagnostics: [Diagnostic] = []
    }

    private let next: any BuildObserving
    private let counts = Mutex(Counts())

    init(forwardingTo next: any BuildObserving) {
        self.next = next
    }

    func receive(_ event: BuildEvent) {
        switch event {
        case .cover(.downloaded): counts.withLock { $0.downloaded += 1 }
        case .cover(.fromCache): counts.withLock { $0.fromCache += 1 }
        case .cover(.revalidated): counts.withLock { $0.revalidated += 1 }
        case .diagnostic(let diagnostic):
            counts.withLock { $0.diagnostics.append(diagnostic) }
            return
        default: break
        }
        next.receive(event)
    }

    /// The counts so far.
    var current: Counts { counts.withLock { $0 } }
}
