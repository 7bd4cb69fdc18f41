/// The image formats a cover may be, recognised by their leading bytes rather than by a name or a
/// server's say-so.
public enum ImageKind: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg, png, webp, gif, svg

    /// The usual file extension.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .gif: "gif"
        case .svg: "svg"
        }
    }

    /// The media type.
    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .gif: "image/gif"
        case .svg: "image/svg+xml"
        }
    }

    /// The kind of image the bytes start with, or `nil` if they are not one of these formats.
    ///
    /// SVG is recognised by an `<svg` root after an optional BOM, XML declaration, comments and
    /// doctype within the first kilobyte.
    public static func sniff(_ bytes: some Collection<UInt8>) -> ImageKind? {
        let head = Array(bytes.prefix(1024))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return .gif }
        return looksLikeSVG(head) ? .svg : nil
    }

    private static func looksLikeSVG(_ head: [UInt8]) -> Bool {
        var text = String(decoding: head, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("<?") || rest.hasPrefix("<!--") || rest.hasPrefix("<!") {
                let terminator = rest.hasPrefix("<?") ? "?>" : rest.hasPrefix("<!--") ? "-->" : ">"
                guard let end = rest.range(of: terminator) else { return false }
                rest = rest[end.upperBound...]
                continue
            }
            return rest.hasPrefix("<svg") && rest.dropFirst(4).first.map { $0 == " " || $0 == ">" || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "/" } == true
        }
    }
}
