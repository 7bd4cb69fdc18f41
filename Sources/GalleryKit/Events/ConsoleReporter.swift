import Foundation
import Synchronization

/// Prints build events for people: `[i/n] step` lines, diagnostics as `path:line:column:` lines,
/// the progress of cover downloads and then of thumbnails, and a closing summary, all on standard
/// error so standard output stays clean for data.
///
/// On a terminal (`interactive`), progress is one live line, redrawn in place at most ten times a
/// second, with a bar, counts, bytes, rate and time left; other lines are printed above it. A
/// ticker redraws it when an event came too soon after the last draw to be shown, and each second
/// while nothing happens (a slow cover), so it never shows an older count, rate or time left.
/// Otherwise (a CI log), it is a plain line at each tenth once the stage has taken two seconds,
/// and a last line when every cover has settled.
public final class ConsoleReporter: BuildObserving {
    private struct Live {
        var progress: CoverProgress?
        var lineShown = false
        var lastDraw = -Double.infinity
        var lastTenth = 0
        /// Whether the progress changed since the line was last drawn.
        var behind = false
    }

    private let state = Mutex(Live())
    /// The timer that calls ``tick()`` while a live line is up, on a terminal.
    private let ticker = Mutex<(any DispatchSourceTimer)?>(nil)
    /// How often the ticker looks at the line.
    static let tickInterval = 0.2
    private let quiet: Bool
    private let verbose: Bool
    private let interactive: Bool
    private let now: @Sendable () -> Double
    private let write: @Sendable (String) -> Void
    /// The terminal's width in columns now, or `nil` when unknown.
    private let columns: @Sendable () -> Int?

    /// A reporter writing to standard error, live when standard error is a terminal.
    ///
    /// - Parameters:
    ///   - quiet: Print only warnings, errors and the failure line.
    ///   - verbose: Also print how long each step took.
    public convenience init(quiet: Bool = false, verbose: Bool = false) {
        let terminal = isatty(STDERR_FILENO) != 0 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
        self.init(quiet: quiet, verbose: verbose, interactive: terminal, columns: Self.terminalColumns) { StandardStreams.error($0) }
    }

    /// Standard error's terminal width, asked at each draw (the window may be resized), or else
    /// `COLUMNS`.
    @Sendable static func terminalColumns() -> Int? {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// A reporter writing somewhere else (tests), with its own clock in seconds.
    public init(
        quiet: Bool = false,
        verbose: Bool = false,
        interactive: Bool = false,
        now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime },
        columns: @escaping @Sendable () -> Int? = { nil },
        write: @escaping @Sendable (String) -> Void
    ) {
        self.columns = columns
        self.quiet = quiet
        self.verbose = verbose
        self.interactive = interactive
        self.now = now
        self.write = write
    }

    public func receive(_ event: BuildEvent) {
        state.withLock { live in
            switch event {
            case .coversPlanned(let remote):
                if !quiet { live.progress = CoverProgress(total: remote, start: now()) }
                live.lastTenth = 0
                if !quiet, remote > 0 { startTicking() }
            case .thumbnailsPlanned(let covers):
                if !quiet { live.progress = CoverProgress(total: covers, start: now(), stage: .thumbnailing) }
                live.lastTenth = 0
                if !quiet, covers > 0 { startTicking() }
            case .cover(let cover):
                guard var progress = live.progress, progress.record(cover) else { return }
                show(progress, &live)
            case .thumbnailSettled(let failed, let made):
                guard var progress = live.progress, progress.settleThumbnail(failed: failed, made: made) else { return }
                show(progress, &live)
            default:
                guard let line = Self.line(for: event, quiet: quiet, verbose: verbose) else { return }
                // A line printed while the live line is up goes above it; the live line follows.
                let clear = live.lineShown ? "\r\u{1B}[K" : ""
                write(clear + line + "\n")
                if case .finished = event {
                    live.lineShown = false
                    live.progress = nil
                    stopTicking()
                } else if live.lineShown, let progress = live.progress {
                    write(drawn(progress, at: now()))
                    live.behind = false
                }
            }
        }
    }

    /// The live line, no wider than one column less than the terminal: `\r` and erasing the
    /// line reach back only to the start of the last row, so a line that wrapped left a row
    /// behind at each redraw (hundreds in a long fetch), and one that fills the last column
    /// wraps in some terminals. The bar gives up its width first (down to 5), so a narrow
    /// terminal keeps the counts; what is still too wide is cut.
    private func drawn(_ progress: CoverProgress, at time: Double) -> String {
        let line = progress.line(at: time)
        guard let width = columns(), line.count >= width else { return line }
        let bar = max(Self.barWidth - (line.count - width + 1), 5)
        let narrower = progress.line(at: time, barWidth: bar)
        guard narrower.count >= width else { return narrower }
        return String(narrower.prefix(max(width - 2, 0))) + (width > 1 ? "…" : "")
    }

    /// The bar's width when the terminal has room.
    static let barWidth = 20

    /// Starts the ticker, on a terminal, unless it runs.
    private func startTicking() {
        guard interactive else { return }
        ticker.withLock { timer in
            guard timer == nil else { return }
            let source = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            source.schedule(deadline: .now() + Self.tickInterval, repeating: Self.tickInterval)
            source.setEventHandler { [weak self] in self?.tick() }
            source.resume()
            timer = source
        }
    }

    /// Stops the ticker (it may still tick once; with no live line, that draws nothing).
    private func stopTicking() {
        ticker.withLock { timer in
            timer?.cancel()
            timer = nil
        }
    }

    /// Redraws the live line if an event was not drawn (it came within a tenth of a second of
    /// the last draw) or a second has passed since the last draw, to move the rate and the time
    /// left on while nothing happens. The ticker calls it; so may tests, with their clock.
    func tick() {
        state.withLock { live in
            guard interactive, let progress = live.progress, !progress.isComplete else { return }
            let time = now()
            let since = time - live.lastDraw
            guard (live.behind && since >= 0.1) || since >= 1 else { return }
            write("\r\u{1B}[K" + drawn(progress, at: time))
            live.lastDraw = time
            live.lineShown = true
            live.behind = false
        }
    }

    deinit {
        ticker.withLock { $0?.cancel() }
    }

    /// Stores `progress` and draws it (live), or prints it at each tenth (plain).
    private func show(_ progress: CoverProgress, _ live: inout Live) {
        live.progress = progress
        let time = now()
        if progress.isComplete, progress.isIdle, interactive || live.lastTenth == 0 {
            // Every thumbnail came from the cache: a line saying 5/5 would only repeat itself on
            // every rebuild of `gallery serve` (a log that showed the count going up gets its end).
            if interactive, live.lineShown { write("\r\u{1B}[K") }
            live.progress = nil
            live.lineShown = false
            stopTicking()
            return
        }
        if interactive {
            if progress.isComplete {
                write("\r\u{1B}[K" + drawn(progress, at: time) + "\n")
                live.progress = nil
                live.lineShown = false
                stopTicking()
            } else if time - live.lastDraw >= 0.1 {
                write("\r\u{1B}[K" + drawn(progress, at: time))
                live.lastDraw = time
                live.lineShown = true
                live.behind = false
            } else {
                live.behind = true
            }
            return
        }
        let tenth = progress.total == 0 ? 10 : 10 * progress.settled / progress.total
        if progress.isComplete || (tenth > live.lastTenth && time - progress.start >= 2) {
            write(progress.plainLine() + "\n")
            live.lastTenth = tenth
        }
        if progress.isComplete { live.progress = nil }
    }

    /// The text of an event, or `nil` for events this reporter does not show.
    static func line(for event: BuildEvent, quiet: Bool, verbose: Bool = false) -> String? {
        switch event {
        case .stepStarted(let index, let count, let name):
            return quiet ? nil : "[\(index)/\(count)] \(name)"
        case .cover, .coversPlanned, .thumbnailsPlanned, .thumbnailSettled:
            return nil
        case .stepFinished(let name, let seconds):
            return verbose ? String(format: "      %@ took %.3f s", name, seconds) : nil
        case .diagnostic(let diagnostic):
            return diagnostic.description
        case .finished(let summary):
            if let step = summary.failedStep {
                // Only the write step changes the output folder, and it may stop half-way.
                let outcome = step == "write" && !summary.outputUnchanged ? "the output folder may hold some of this build's files; once that is fixed, the next build completes it" : "the output folder was not changed"
                return "build failed in step '\(step)' with \(counted(summary.errors, "error")); \(outcome)"
            }
            if quiet { return nil }
            let seconds = summary.timings.reduce(0) { $0 + $1.seconds }
            var text = "built \(counted(summary.albums, "album")): \(counted(summary.written, "file")) written, \(summary.unchanged) unchanged"
            if summary.removed > 0 { text += ", \(summary.removed) removed" }
            if summary.thumbnailsMade > 0 { text += ", \(counted(summary.thumbnailsMade, "thumbnail")) made" }
            if let remote = remoteCovers(summary) { text += ", " + remote }
            let cacheFilesRemoved = summary.thumbnailsRemoved + summary.coversRemoved
            if cacheFilesRemoved > 0 { text += ", \(counted(cacheFilesRemoved, "unused cache file")) removed" }
            // Albums, not covers: 300 albums that share a missing cover are 300 placeholders,
            // where the progress line counts the one cover.
            if summary.coversFailed > 0 { text += ", \(counted(summary.coversFailed, "album")) without a cover" }
            if summary.warnings > 0 { text += ", \(counted(summary.warnings, "warning"))" }
            if summary.upToDate { text += " (nothing changed since the last build)" }
            return text + String(format: " in %.2f s", seconds)
        }
    }

    /// What became of the remote covers, for a site that has some: `998 covers downloaded, 2 from
    /// the cache`, `1 cover revalidated`. Only the outcomes that happened are named; those that
    /// failed are counted by album after it, as placeholders.
    static func remoteCovers(_ summary: BuildSummary) -> String? {
        let outcomes = [(summary.coversDownloaded, "downloaded"), (summary.coversRevalidated, "revalidated"), (summary.coversFromCache, "from the cache")]
            .filter { $0.0 > 0 }
        guard let first = outcomes.first else { return nil }
        return ([counted(first.0, "cover") + " " + first.1] + outcomes.dropFirst().map { "\($0.0) \($0.1)" }).joined(separator: ", ")
    }

    /// A count and its noun: "1 file", "2 files".
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
