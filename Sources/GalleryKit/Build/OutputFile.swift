import Foundation

/// A file of the finished site: its path relative to the output folder and where its bytes come from.
public struct OutputFile: Sendable, Hashable {
    /// Where the bytes come from.
    public enum Content: Sendable, Hashable {
        /// Bytes in memory.
        case bytes([UInt8])
        /// A copy of a file on disk, such as a cover in the site folder.
        case copy(of: URL)
        /// A file of gallery's own cache, which is never changed in place (only replaced), so
        /// the output may share it as a hard link instead of a copy.
        case cached(URL)
        /// A copy of a file on disk too large to hold in memory (a video in `static/`), made a
        /// piece at a time: its size and ``FastHash/contentHash(_:)`` as read when it was found.
        case streamed(from: URL, size: Int, hash: UInt64)
    }

    /// The path relative to the output folder, with `/` separators.
    public var path: String
    /// The bytes.
    public var content: Content
    /// A hash of the content, known without reading it (a copied cover's content hash), so an
    /// incremental build can skip it; `nil` to hash the bytes.
    public var contentKey: UInt64?

    /// Creates an output file.
    public init(path: String, content: Content, contentKey: UInt64? = nil) {
        self.path = path
        self.content = content
        self.contentKey = contentKey
    }

    /// The bytes, reading the source file if needed.
    public func bytes() throws -> [UInt8] {
        switch content {
        case .bytes(let bytes): bytes
        case .copy(let url), .cached(let url), .streamed(let url, _, _): Array(try Data(contentsOf: url))
        }
    }
}
