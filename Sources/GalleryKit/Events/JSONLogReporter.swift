import Foundation
import Synchronization

/// Writes every build event as one JSON object per line (`--log-format json`), for CI: steps,
/// diagnostics, cover progress, and last a summary of albums, outputs, covers, warnings,
/// errors and timings. Keys come in a fixed order, so logs diff well.
public final class JSONLogReporter: BuildObserving {
    /// The step under way (for a build stopped by a signal), and whether the log has ended.
    private struct Log {
        var step: String?
        var ended = false
    }

    private let lock = Mutex(Log())
    private let write: @Sendable (String) -> Void
    /// Only diagnostics and the summary (`-q`), as the text log then prints only warnings
    /// and errors.
    private let quiet: Bool

    /// Where each finding is also written as text (`path:line:column: severity: message`), or
    /// `nil`: standard error by default, so a CI job's log shows why a build failed while the
    /// events go to a file.
    private let echo: (@Sendable (String) -> Void)?

    /// A reporter writing events to standard output and findings, as text, to standard error.
    public convenience init(quiet: Bool = false) {
        self.init(quiet: quiet, echo: { StandardStreams.error($0) }) { StandardStreams.output($0) }
    }

    /// A reporter writing somewhere else (tests).
    public init(quiet: Bool = false, echo: (@Sendable (String) -> Void)? = nil, write: @escaping @Sendable (String) -> Void) {
        self.quiet = quiet
        self.echo = echo
        self.write = write
    }

    public func receive(_ event: BuildEvent) {
        if case .diagnostic(let diagnostic) = event, let echo { echo(diagnostic.description + "\n") }
        if quiet {
            switch event {
            case .diagnostic, .finished: break
            default: return
            }
        }
        let line = Self.line(for: event)
        lock.withLock { log in
            if case .stepStarted(_, _, let name) = event { log.step = name }
            guard !log.ended, let line else { return }
            write(line + "\n")
        }
    }

    /// Ends the log of a build stopped by a signal (`SIGTERM` from a cancelled CI job) with a
    /// summary saying so, `{"event":"summary","succeeded":false,"failed_step":"fetch covers",
    /// "stopped_by":"SIGTERM"}`, so the last line is a summary however the build ended; nothing
    /// is written after it. Its counts are not known, and left out.
    public func stopped(by signal: String) {
        lock.withLock { log in
            guard !log.ended else { return }
            log.ended = true
            write(Self.object([("event", Self.q("summary")), ("succeeded", "false"), ("failed_step", log.step.map(Self.q) ?? "null"), ("stopped_by", Self.q(signal))]) + "\n")
        }
    }

    /// `templates/partials/tile.mustache:1` as its file and line.
    static func templateParts(_ template: String?) -> (file: String, line: Int)? {
        guard let template, let colon = template.lastIndex(of: ":"), let line = Int(template[template.index(after: colon)...]) else { return nil }
        return (String(template[..<colon]), line)
    }

    /// The JSON object for an event, or `nil` for one a log leaves out: byte counts of downloads
    /// in progress would flood it (the finished download says how many), and so would each
    /// thumbnail settling (each cover's `thumbnailed` or `failed` event says it).
    static func line(for event: BuildEvent) -> String? {
        switch event {
        case .stepStarted(let index, let count, let name):
            return object([("event", q("step")), ("index", "\(index)"), ("count", "\(count)"), ("name", q(name))])
        case .stepFinished(let name, let seconds):
            return object([("event", q("step_finished")), ("name", q(name)), ("seconds", number(seconds))])
        case .diagnostic(let diagnostic):
            return object([
                ("event", q("diagnostic")), ("severity", q(diagnostic.severity.rawValue)), ("path", diagnostic.path.isEmpty ? "null" : q(diagnostic.path)),
                ("line", diagnostic.position.map { "\($0.line)" } ?? "null"),
                ("column", diagnostic.position.map { "\($0.column)" } ?? "null"),
                ("message", q(diagnostic.message)), ("template", diagnostic.template.map(q) ?? "null"),
                // The template's file and line apart, for a CI annotation on the file to fix.
                ("template_file", templateParts(diagnostic.template).map { q($0.file) } ?? "null"),
                ("template_line", templateParts(diagnostic.template).map { "\($0.line)" } ?? "null"),
                ("other_pages", "\(diagnostic.otherPages)"),
            ])
        case .coversPlanned(let remote):
            return object([("event", q("covers_planned")), ("remote", "\(remote)")])
        case .thumbnailsPlanned(let covers):
            return object([("event", q("thumbnails_planned")), ("covers", "\(covers)")])
        case .thumbnailSettled:
            return nil
        case .cover(let cover):
            return coverLine(cover)
        case .finished(let summary):
            return summaryLine(summary)
        }
    }

    static func coverLine(_ event: CoverEvent) -> String? {
        switch event {
        case .queued(let url): object([("event", q("cover")), ("kind", q("queued")), ("url", q(url))])
        case .downloading: nil
        case .downloaded(let url, let bytes): object([("event", q("cover")), ("kind", q("downloaded")), ("url", q(url)), ("bytes", "\(bytes)")])
        case .fromCache(let url): object([("event", q("cover")), ("kind", q("from_cache")), ("url", q(url))])
        case .revalidated(let url): object([("event", q("cover")), ("kind", q("revalidated")), ("url", q(url))])
        case .thumbnailed(let url, let made, let cached):
            object([("event", q("cover")), ("kind", q("thumbnailed")), ("url", q(url)), ("made", "\(made)"), ("cached", "\(cached)")])
        case .failed(let url, let reason): object([("event", q("cover")), ("kind", q("failed")), ("url", q(url)), ("reason", q(reason))])
        }
    }

    static func summaryLine(_ summary: BuildSummary) -> String {
        let timings = object(summary.timings.map { ($0.step, number($0.seconds)) })
        let total = summary.timings.reduce(0) { $0 + $1.seconds }
        return object([
            ("event", q("summary")),
            ("succeeded", "\(summary.succeeded)"),
            ("failed_step", summary.failedStep.map(q) ?? "null"),
            ("up_to_date", "\(summary.upToDate)"),
            ("albums", "\(summary.albums)"),
            ("pages", object([("written", "\(summary.pagesWritten)"), ("unchanged", "\(summary.pagesUnchanged)"), ("removed", "\(summary.pagesRemoved)")])),
            ("files", object([("written", "\(summary.written)"), ("unchanged", "\(summary.unchanged)"), ("removed", "\(summary.removed)")])),
            ("covers", object([
                ("downloaded", "\(summary.coversDownloaded)"), ("from_cache", "\(summary.coversFromCache)"),
                ("revalidated", "\(summary.coversRevalidated)"), ("local", "\(summary.coversLocal)"), ("failed", "\(summary.coversFailed)"),
                ("removed", "\(summary.coversRemoved)"),
            ])),
            ("thumbnails", object([("made", "\(summary.thumbnailsMade)"), ("cached", "\(summary.thumbnailsCached)"), ("removed", "\(summary.thumbnailsRemoved)")])),
            // Whether the cache holds covers or thumbnails it did not before, or lost some: a CI
            // job saves it only then, rather than uploading the same covers on every run.
            ("cache_changed", "\(summary.coversDownloaded + summary.coversRemoved + summary.thumbnailsMade + summary.thumbnailsRemoved > 0)"),
            ("warnings", "\(summary.warnings)"),
            ("errors", "\(summary.errors)"),
            ("timings", timings),
            ("seconds", number(total)),
        ])
    }

    private static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(q($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    private static func q(_ text: String) -> String { Escape.jsonString(text) }

    private static func number(_ value: Double) -> String { String(format: "%.4f", value) }
}
