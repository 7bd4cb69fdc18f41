/// How a remote cover may use the network: the build's `--refresh` and `--offline` choices.
public enum FetchMode: Sendable, Hashable {
    /// A cached cover is used without touching the network; only missing covers are downloaded.
    case useCache
    /// Every cached cover is revalidated with a conditional request (`If-None-Match`,
    /// `If-Modified-Since`); a `304 Not Modified` keeps the cached copy.
    case refresh
    /// The network is never touched: a cover missing from the cache fails.
    case offline
}
