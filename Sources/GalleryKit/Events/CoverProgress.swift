import Foundation

/// How far a build's remote covers have come, as the console shows it: how many of them have
/// settled (downloaded, taken from the cache, revalidated or failed), the bytes received, the
/// rate and an estimate of the time left. Or, in the thumbnails step, how many covers have been
/// thumbnailed (or failed).
///
/// A value type fed with events and asked for its text at a given moment, so it draws the same
/// line in a test as on a terminal.
struct CoverProgress: Sendable {
    /// What is being counted.
    enum Stage: Sendable {
        /// Remote covers being fetched, settled by cover events.
        case fetching
        /// Covers being thumbnailed, settled by ``settleThumbnail(failed:made:)``.
        case thumbnailing
    }

    /// The covers the stage goes through.
    let total: Int
    /// What is being counted.
    let stage: Stage
    /// When fetching began, in seconds on the clock the caller passes to ``line(at:)``.
    let start: Double
    /// Covers that have settled.
    private(set) var settled = 0
    /// Covers that failed.
    private(set) var failed = 0
    /// Covers whose thumbnails had to be made (not only read from the cache).
    private(set) var made = 0
    private var inFlight: [String: Int] = [:]
    private var finishedBytes = 0

    /// Progress of `total` covers through `stage`, starting at `start`.
    init(total: Int, start: Double, stage: Stage = .fetching) {
        self.total = total
        self.start = start
        self.stage = stage
    }

    /// Bytes received so far, finished downloads and those still arriving.
    var bytes: Int { finishedBytes + inFlight.values.reduce(0, +) }

    /// Whether every cover has settled.
    var isComplete: Bool { settled >= total }

    /// Counts an event; returns whether the line changed.
    mutating func record(_ event: CoverEvent) -> Bool {
        guard stage == .fetching else { return false }
        switch event {
        case .queued, .thumbnailed:
            return false
        case .downloading(let url, let received, _):
            inFlight[url] = received
        case .downloaded(let url, let count):
            inFlight[url] = nil
            finishedBytes += count
            settled += 1
        case .fromCache(let url), .revalidated(let url):
            inFlight[url] = nil
            settled += 1
        case .failed(let url, _):
            inFlight[url] = nil
            failed += 1
            settled += 1
        }
        return true
    }

    /// Counts one cover thumbnailed, or failed; returns whether the line changed.
    mutating func settleThumbnail(failed: Bool, made: Bool = true) -> Bool {
        guard stage == .thumbnailing else { return false }
        settled += 1
        if failed { self.failed += 1 }
        if made, !failed { self.made += 1 }
        return true
    }

    /// Whether the thumbnails step made nothing and nothing failed: every thumbnail came from
    /// the cache.
    var isIdle: Bool {
        stage == .thumbnailing && made == 0 && failed == 0
    }

    /// The word the lines start with.
    private var label: String {
        stage == .fetching ? "covers" : "thumbnails"
    }

    /// The live line for a terminal: `covers [#####.....] 12/24 · 1.2 MB · 600 kB/s · ETA 0:02`.
    func line(at now: Double, barWidth: Int = 20) -> String {
        let shown = min(settled, total)
        let filled = total == 0 ? barWidth : barWidth * shown / total
        var text = label + " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "] \(shown)/\(total)"
        let elapsed = max(now - start, 0)
        if bytes > 0 {
            text += " · \(Self.size(bytes))"
            if elapsed >= 0.5 { text += " · \(Self.size(Int(Double(bytes) / elapsed)))/s" }
        }
        if shown > 0, shown < total, elapsed >= 0.5 {
            text += " · ETA \(Self.duration(elapsed / Double(shown) * Double(total - shown)))"
        }
        if let cached = cachedNote { text += " · " + cached }
        if failed > 0 { text += " · \(failed) failed" }
        return text
    }

    /// Once thumbnails are done, how many covers came from the cache, when some did and some
    /// were made (`1 cover made, 120 from the cache`): a rebuild after one new cover otherwise
    /// reads as if it had made all 121. It counts covers, as the line does; the summary counts
    /// thumbnail files (three a cover), so it says "cover".
    private var cachedNote: String? {
        guard stage == .thumbnailing, isComplete else { return nil }
        let cached = settled - made - failed
        guard cached > 0, made > 0 else { return nil }
        return "\(made) \(made == 1 ? "cover" : "covers") made, \(cached) from the cache"
    }

    /// The line for a log: `covers: 12/24 (50%), 1.2 MB, 1 failed`.
    func plainLine() -> String {
        let shown = min(settled, total)
        let percent = total == 0 ? 100 : 100 * shown / total
        var text = "\(label): \(shown)/\(total) (\(percent)%)"
        if bytes > 0 { text += ", \(Self.size(bytes))" }
        if let cached = cachedNote { text += ", " + cached }
        if failed > 0 { text += ", \(failed) failed" }
        return text
    }

    /// A byte count in decimal units, as download tools show them: `512 B`, `1.2 kB`, `34.5 MB`.
    static func size(_ bytes: Int) -> String {
        let units = ["kB", "MB", "GB", "TB"]
        guard bytes >= 1000 else { return "\(bytes) B" }
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 999.95, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return String(format: "%.1f %@", value, units[unit])
    }

    /// Seconds as `m:ss`, or `h:mm:ss` from an hour on.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, secs) : String(format: "%d:%02d", minutes, secs)
    }
}
