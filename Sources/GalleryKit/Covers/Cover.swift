import Foundation

/// A cover image the facade handed out: a file on disk whose bytes are a known image format.
///
/// Callers do not learn whether it came from the network, the cache or the site folder.
public struct Cover: Sendable, Hashable {
    /// The file holding the image (in the site folder or the cover cache).
    public var file: URL
    /// The image format, from the bytes.
    public var kind: ImageKind
    /// The SHA-256 of the bytes, in hex.
    public var contentHash: String
    /// The size in bytes.
    public var size: Int

    /// Creates a cover.
    public init(file: URL, kind: ImageKind, contentHash: String, size: Int) {
        self.file = file
        self.kind = kind
        self.contentHash = contentHash
        self.size = size
    }
}

/// Why an album has no cover; the build shows a placeholder and warns (or fails with `--strict`).
public struct CoverFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The album's `cover_url`.
    public var url: String
    /// What went wrong and what to do.
    public var reason: String

    /// Creates a failure.
    public init(url: String, reason: String) {
        self.url = url
        self.reason = reason
    }

    public var description: String { "cover '\(url)': \(reason)" }
}
