import Foundation
import GalleryKit

/// The path of a request, checked and split into the names it asks for below the served folder.
///
/// Percent-encoding is decoded exactly once, per segment, after splitting at `/`; so `%2f` can
/// never make a separator and `%252e%252e` stays the harmless literal name `%2e%2e`. A path with
/// a `.` or `..` segment (in any encoding), an empty segment (`//`), a NUL, a backslash, an encoded
/// slash or bytes that are not UTF-8 is refused outright rather than normalised: no page of a site links that way.
public struct RequestPath: Sendable, Hashable {
    /// The decoded names, outermost first; empty for the root.
    public let segments: [String]
    /// Whether the path ends with `/` (asks for a folder's `index.html`).
    public let isFolder: Bool

    /// Checks a raw request path (without the query), or returns `nil` if it must be refused.
    public init?(_ raw: some StringProtocol) {
        guard raw.first == "/" else { return nil }
        let parts = raw.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var segments: [String] = []
        for (position, part) in parts.enumerated() {
            if part.isEmpty {
                // Only the trailing `/` may leave an empty name: `//host` must not become a
                // protocol-relative redirect target.
                guard position == parts.count - 1 else { return nil }
                continue
            }
            guard let name = String(part).removingPercentEncoding, Self.isAllowed(name) else { return nil }
            segments.append(name)
        }
        self.segments = segments
        self.isFolder = segments.isEmpty || raw.hasSuffix("/")
    }

    /// Whether a raw request path has a `%` that is not followed by two hexadecimal digits
    /// (`/100%.txt`, `/%zz`): no name can be read from it, which is the client's mistake (a `%`
    /// in a name is sent as `%25`), not a way out of the site.
    public static func hasMalformedEscape(_ raw: some StringProtocol) -> Bool {
        let bytes = Array(raw.utf8)
        return bytes.indices.contains { bytes[$0] == UInt8(ascii: "%") && !PercentEscape.begins(at: $0, in: bytes) }
    }

    /// The path relative to the served folder, `/`-separated.
    public var relative: String { segments.joined(separator: "/") }

    private static func isAllowed(_ name: String) -> Bool {
        if name == "." || name == ".." { return false }
        return !name.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0 == "\0" }
    }
}
