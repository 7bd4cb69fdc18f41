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
    /// doctype (with its internal subset: old Illustrator exports declare their namespaces as
    /// entities there) within the first 4 KB.
    public static func sniff(_ bytes: some Collection<UInt8>) -> ImageKind? {
        let head = Array(bytes.prefix(4096))
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
                guard var end = rest.range(of: terminator) else { return false }
                // A doctype's internal subset, `[ … ]`, holds declarations that end in `>` too.
                if terminator == ">", let open = rest.firstIndex(of: "["), open < end.lowerBound {
                    guard let close = rest[open...].range(of: "]"),
                          let after = rest[close.upperBound...].firstIndex(where: { !$0.isWhitespace }),
                          rest[after] == ">" else { return false }
                    end = after..<rest.index(after: after)
                }
                rest = rest[end.upperBound...]
                continue
            }
            return rest.hasPrefix("<svg") && rest.dropFirst(4).first.map { $0 == " " || $0 == ">" || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "/" } == true
        }
    }
}

/// What a file that is no cover image is, when its first bytes tell: an image of a format
/// gallery does not read (a phone's HEIC, a scanner's TIFF), a Git LFS pointer checked out
/// without its file, a web page, or nothing at all. Messages say it, and what to do, instead of
/// "not an image".
public struct NotACover: Sendable, Equatable {
    /// What the file is: `a HEIC image (an iPhone's usual format), which gallery does not read`.
    public var what: String
    /// What to do: `export it as JPEG or PNG`.
    public var advice: String

    /// What the bytes are, or `nil` when they do not say.
    public static func identify(_ bytes: some Collection<UInt8>) -> NotACover? {
        let head = Array(bytes.prefix(512))
        let unread = { (name: String) in "\(name), which gallery does not read as a cover" }
        if head.isEmpty { return NotACover(what: "empty (0 bytes)", advice: "copy or download the cover again") }
        if head.starts(with: Array("version https://git-lfs.github.com/spec/".utf8)) {
            return NotACover(what: "a Git LFS pointer, not the image", advice: "fetch the LFS files (git lfs pull; in GitHub Actions, actions/checkout with lfs: true)")
        }
        if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            if ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].contains(brand) {
                return NotACover(what: unread("a HEIC image (an iPhone's usual format)"), advice: "export it as JPEG or PNG")
            }
            if ["avif", "avis"].contains(brand) { return NotACover(what: unread("an AVIF image"), advice: "export it as JPEG, PNG or WebP") }
        }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            return NotACover(what: unread("a TIFF image (a scanner's usual format)"), advice: "export it as JPEG or PNG")
        }
        if head.count >= 15, head.starts(with: Array("BM".utf8)), [12, 40, 52, 56, 108, 124].contains(head[14]) {
            return NotACover(what: unread("a BMP image"), advice: "export it as PNG")
        }
        if head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) {
            return NotACover(what: unread("a JPEG XL image"), advice: "export it as JPEG or PNG")
        }
        if head.starts(with: [0x1F, 0x8B, 0x08]) {
            // A server that compresses what gallery never asked it to (no Accept-Encoding), or a .gz file.
            return NotACover(what: "gzip-compressed data, not an image as it is", advice: "point cover_url at an uncompressed copy (a server that sends Content-Encoding: gzip unasked is misconfigured), or gunzip the file")
        }
        if head.starts(with: Array("8BPS".utf8)) { return NotACover(what: "a Photoshop document", advice: "export the cover as JPEG or PNG") }
        if head.starts(with: Array("%PDF".utf8)) { return NotACover(what: "a PDF document", advice: "export the cover as JPEG or PNG") }
        let text = String(decoding: head, as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }.prefix(64).lowercased()
        if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") || text.hasPrefix("<head") {
            return NotACover(what: "a web page, not an image", advice: "point cover_url at the image itself (in a browser, right-click it and copy the image address)")
        }
        return nil
    }
}
