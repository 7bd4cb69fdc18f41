import Foundation
import GalleryKit
import Synchronization

/// Passes a build's events on to the terminal's reporter, except warnings the previous build
/// already gave: `gallery serve` rebuilds on every save, and a site with 170 missing covers would
/// print the same 170 lines each time. Those are counted instead, in one line before the
/// summary (`170 warnings as before`). Errors always pass.
///
/// A rebuild's seven step lines are one line too, with the time of day
/// (`serve: rebuilding at 14:02:07`), so a day of saves reads as a log of them; the first
/// build shows its steps, as `gallery build` does.
public final class RepeatedWarningFilter: BuildObserving {
    private struct Seen {
        /// The warnings of the last build, `nil` before the first.
        var previous: Set<String>?
        /// The warnings of the build under way.
        var current: Set<String> = []
        /// How many of them the previous build gave too.
        var repeated = 0
        /// Whether a build has finished, so the next ones are rebuilds.
        var rebuilding = false
        /// What the watcher saw change before the next rebuild, said on its line.
        var cause: String?
    }

    private let seen = Mutex(Seen())
    private let next: any BuildObserving
    private let log: @Sendable (String) -> Void

    /// A filter in front of `next`, writing its count line with `log`.
    public init(next: any BuildObserving, log: @escaping @Sendable (String) -> Void) {
        self.next = next
        self.log = log
    }

    public func receive(_ event: BuildEvent) {
        switch event {
        case .diagnostic(let diagnostic) where diagnostic.severity == .warning:
            let isRepeated = seen.withLock { seen in
                let text = diagnostic.description
                guard seen.current.insert(text).inserted else { return true }
                guard seen.previous?.contains(text) == true else { return false }
                seen.repeated += 1
                return true
            }
            if !isRepeated { next.receive(event) }
        case .stepStarted(let index, _, _):
            let (rebuilding, cause) = seen.withLock { seen in
                defer { if index == 1 { seen.cause = nil } }
                return (seen.rebuilding, seen.cause)
            }
            guard rebuilding else { return next.receive(event) }
            if index == 1 { log("serve: rebuilding at " + Self.timeOfDay() + (cause.map { " (\($0) changed)" } ?? "")) }
        case .finished(let summary):
            let repeated = seen.withLock { seen in
                seen.rebuilding = true
                let repeated = seen.repeated
                // A build that stopped early saw only some of the warnings: the rest still stand.
                seen.previous = summary.failedStep == nil ? seen.current : seen.current.union(seen.previous ?? [])
                seen.current = []
                seen.repeated = 0
                return repeated
            }
            if repeated > 0 { log("\(repeated) warning\(repeated == 1 ? "" : "s") as before") }
            next.receive(event)
        default:
            next.receive(event)
        }
    }

    /// Says on the next rebuild's line what changed (`content/albums.json`): a file the watcher
    /// saw change, or a description of several.
    public func noteChange(_ cause: String?) {
        seen.withLock { $0.cause = cause }
    }

    /// The local time as `14:02:07`.
    static func timeOfDay() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
