import Foundation

/// What the cover cache knows about one URL: where its bytes are and how to revalidate them.
///
/// Stored in the cache's `index.json`, keyed by URL, with snake_case keys like the archive's.
public struct CoverCacheEntry: Codable, Sendable, Hashable {
    /// The cover URL as the album gives it (absolute `http(s)` URL).
    public var url: String
    /// The response's `ETag`, sent back as `If-None-Match` on `--refresh`.
    public var etag: String?
    /// The response's `Last-Modified`, sent back as `If-Modified-Since` on `--refresh`.
    public var lastModified: String?
    /// The response's `Content-Type` (informative only: the format comes from the bytes).
    public var contentType: String?
    /// The size of the stored bytes.
    public var size: Int
    /// The SHA-256 of the stored bytes, in hex: the object's name.
    public var contentHash: String
    /// The image format, sniffed from the bytes.
    public var kind: ImageKind
    /// When the bytes were last fetched or revalidated, ISO-8601 in UTC (`2025-01-31T12:00:00Z`).
    public var fetchedAt: String

    /// Creates an entry.
    public init(
        url: String, etag: String?, lastModified: String?, contentType: String?,
        size: Int, contentHash: String, kind: ImageKind, fetchedAt: String
    ) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
        self.size = size
        self.contentHash = contentHash
        self.kind = kind
        self.fetchedAt = fetchedAt
    }

    /// Whether a conditional request can be made (the server gave a validator).
    public var canRevalidate: Bool { etag != nil || lastModified != nil }

    enum CodingKeys: String, CodingKey {
        case url, etag, size, kind
        case lastModified = "last_modified"
        case contentType = "content_type"
        case contentHash = "content_hash"
        case fetchedAt = "fetched_at"
    }
}
