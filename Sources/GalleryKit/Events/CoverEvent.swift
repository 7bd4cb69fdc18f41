/// What happens to covers as a build gets them: the seed's `BLDownloadImageNotification`,
/// published by the ``Library`` facade for observers (progress bars, logs).
public enum CoverEvent: Sendable, Hashable {
    /// A cover download is waiting for a free slot.
    case queued(url: String)
    /// Bytes of a download arrived; `expected` is the Content-Length when the server sent one.
    case downloading(url: String, received: Int, expected: Int?)
    /// A download finished and was stored in the cache.
    case downloaded(url: String, bytes: Int)
    /// A cover came from the cache without touching the network.
    case fromCache(url: String)
    /// A cached cover was confirmed with a conditional request (a 304, or the same bytes again).
    /// A refresh that brings new bytes is ``downloaded(url:bytes:)``.
    case revalidated(url: String)
    /// Thumbnails of a cover are ready (`made` of them encoded now, the rest from the cache).
    case thumbnailed(url: String, made: Int, cached: Int)
    /// A cover could not be had; the album shows the placeholder.
    case failed(url: String, reason: String)
}
