import Foundation
import Synchronization

/// Prints build events for people: `[i/n] step` lines, diagnostics as `path:line:column:` lines,
/// and a closing summary, all on standard error so standard output stays clean for data.
public final class ConsoleReporter: BuildObserving {
    private let lock = Mutex(())
    private let quiet: Bool
    private let verbose: Bool
    private let write: @Sendable (String) -> Void

    /// A reporter writing to standard error.
    ///
    /// - Parameters:
    ///   - quiet: Print only warnings, errors and the failure line.
    ///   - verbose: Also print how long each step took.
    public init(quiet: Bool = false, verbose: Bool = false) {
        self.quiet = quiet
        self.verbose = verbose
        self.write = { FileHandle.standardError.write(Data($0.utf8)) }
    }

    /// A reporter writing somewhere else (tests).
    public init(quiet: Bool = false, verbose: Bool = false, write: @escaping @Sendable (String) -> Void) {
        self.quiet = quiet
        self.verbose = verbose
        self.write = write
    }

    public func receive(_ event: BuildEvent) {
        guard let line = Self.line(for: event, quiet: quiet, verbose: verbose) else { return }
        lock.withLock { _ in write(line + "\n") }
    }

    /// The text of an event, or `nil` for events this reporter does not show.
    static func line(for event: BuildEvent, quiet: Bool, verbose: Bool = false) -> String? {
        switch event {
        case .stepStarted(let index, let count, let name):
            return quiet ? nil : "[\(index)/\(count)] \(name)"
        case .cover:
            return nil
        case .stepFinished(let name, let seconds):
            return verbose ? String(format: "      %@ took %.3f s", name, seconds) : nil
        case .diagnostic(let diagnostic):
            return diagnostic.description
        case .finished(let summary):
            if let step = summary.failedStep {
                return "build failed in step '\(step)' with \(summary.errors) error\(summary.errors == 1 ? "" : "s"); the output folder was not changed"
            }
            if quiet { return nil }
            let seconds = summary.timings.reduce(0) { $0 + $1.seconds }
            var text = "built \(summary.albums) album\(summary.albums == 1 ? "" : "s"): \(summary.written) files written, \(summary.unchanged) unchanged"
            if summary.removed > 0 { text += ", \(summary.removed) removed" }
            if summary.thumbnailsMade > 0 { text += ", \(summary.thumbnailsMade) thumbnail\(summary.thumbnailsMade == 1 ? "" : "s") made" }
            if summary.coversFailed > 0 { text += ", \(summary.coversFailed) cover\(summary.coversFailed == 1 ? "" : "s") missing" }
            if summary.warnings > 0 { text += ", \(summary.warnings) warning\(summary.warnings == 1 ? "" : "s")" }
            return text + String(format: " in %.2f s", seconds)
        }
    }
}
