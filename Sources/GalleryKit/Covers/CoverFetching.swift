import Foundation

/// Something that turns a remote cover URL into a cover on disk: the adapter the ``Library``
/// facade uses for `http(s)://` covers. ``CoverFetcher`` is the real one; tests may swap it.
public protocol CoverFetching: Sendable {
    /// The cover at `url`, from the cache or the network as `mode` allows, or why there is none.
    func cover(for url: URL, mode: FetchMode) async -> Result<Cover, CoverFailure>
}
