/// The cover cache could not write a file: the path and the system's reason.
public struct CoverCacheError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file or folder that could not be written.
    public var path: String
    /// The system's reason.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot write the cover cache (\(path)): \(reason)" }
}
