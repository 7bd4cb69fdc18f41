/// What a build publishes as it goes: the seed's notifications, for observers that draw progress
/// or write logs. The build never prints; observers decide how events look.
public enum BuildEvent: Sendable {
    /// Step `index` (from 1) of `count` began.
    case stepStarted(index: Int, count: Int, name: String)
    /// A step ended after `seconds`.
    case stepFinished(name: String, seconds: Double)
    /// A finding: an archive problem, a cover failure, an invalid page.
    case diagnostic(Diagnostic)
    /// The build is about to fetch `remote` distinct remote covers (sent only when there are any).
    case coversPlanned(remote: Int)
    /// The build is about to thumbnail `covers` distinct covers (sent only when there are any).
    case thumbnailsPlanned(covers: Int)
    /// One of them is done, as it finishes, in no particular order: for progress; `made` when a
    /// thumbnail had to be made, not only read from the cache. (Each cover's `thumbnailed` or
    /// `failed` event follows at the end of the step, in album order.)
    case thumbnailSettled(failed: Bool, made: Bool = true)
    /// Progress of a cover: queued, downloading, from the cache, thumbnailed, failed.
    case cover(CoverEvent)
    /// The build ended; the summary says how.
    case finished(BuildSummary)
}

/// Receives build events. Implementations must be safe to call from any task.
public protocol BuildObserving: Sendable {
    /// Handles one event.
    func receive(_ event: BuildEvent)
}

/// An observer that ignores everything, for callers that only want the result.
public struct SilentObserver: BuildObserving {
    /// Creates the observer.
    public init() {}
    public func receive(_ event: BuildEvent) {}
}
