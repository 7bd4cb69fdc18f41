import Foundation

/// A file of the finished site: its path relative to the output folder and where its bytes come from.
public struct OutputFile: Sendable, Hashable {
    /// Where the bytes come from.
    public enum Content: Sendable, Hashable {
        /// Bytes in memory.
        case bytes([UInt8])
        /// A copy of a file on disk (a cover, a cached thumbnail).
        case copy(of: URL)
    }

    /// The path relative to the output folder, with `/` separators.
    public var path: String
    /// The bytes.
    public var content: Content

    /// Creates an output file.
    public init(path: String, content: Content) {
        self.path = path
        self.content = content
    }

    /// The bytes, reading the source file if needed.
    public func bytes() throws -> [UInt8] {
        switch content {
        case .bytes(let bytes): bytes
        case .copy(let url): Array(try Data(contentsOf: url))
        }
    }
}
