/// Resolves the URLs in one output file to files of the finished output folder.
///
/// Internal references (no scheme, not `//host`) lose their `?query` and `#fragment`, are
/// percent-decoded and resolved against the file's folder, or against the site's base path when
/// they start with `/`. A reference ending in `/`, or naming a folder, means that folder's
/// `index.html`, as a static web server serves it.
struct ReferenceResolver: Sendable {
    /// What a reference turned out to be.
    enum Outcome: Equatable, Sendable {
        /// A URL with a scheme or a host: not checked.
        case external
        /// The file itself (``, `?query`, `#`, `#top`).
        case sameFile
        /// A fragment of the file itself, percent-decoded: it must name an `id` there.
        case fragment(String)
        /// A file in the output.
        case found(String)
        /// No such file; the path it resolved to.
        case missing(String)
        /// `..` climbed above the output root.
        case escapesRoot
        /// A root-relative reference outside the site's base path.
        case outsideBasePath
        /// Broken `%` escapes, or bytes that are not UTF-8 once decoded.
        case malformed
    }

    /// Every file the output folder will hold, relative to its root, with `/` separators.
    let outputPaths: Set<String>
    /// The base URL's path, with a leading and a trailing `/`.
    let basePath: String
    /// The folders that hold the file being checked, from the root down.
    private let folder: [Substring]

    /// A resolver for references that appear in the file at `path` (relative to the output root).
    init(outputPaths: Set<String>, basePath: String, path: String) {
        self.outputPaths = outputPaths
        self.basePath = basePath
        self.folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().filter { !$0.isEmpty }
    }

    /// Resolves one reference as written in an attribute.
    func resolve(_ reference: String) -> Outcome {
        let trimmed = reference.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty else { return .sameFile }
        if Self.hasScheme(trimmed) || trimmed.hasPrefix("//") { return .external }
        var path = trimmed[...]
        var fragment: Substring?
        if let hash = path.firstIndex(of: "#") {
            fragment = path[path.index(after: hash)...]
            path = path[..<hash]
        }
        if let question = path.firstIndex(of: "?") { path = path[..<question] }
        if path.isEmpty {
            guard let fragment, !fragment.isEmpty, fragment.lowercased() != "top" else { return .sameFile }
            return .fragment(Self.percentDecoded(fragment) ?? String(fragment))
        }
        guard let decoded = Self.percentDecoded(path) else { return .malformed }
        var segments: [Substring]
        var relative = decoded[...]
        if relative.hasPrefix("/") {
            if relative == basePath.dropLast() {
                relative = ""
            } else if relative.hasPrefix(basePath) {
                relative = relative.dropFirst(basePath.count)
            } else {
                return .outsideBasePath
            }
            segments = []
        } else {
            segments = folder
        }
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        for part in parts {
            switch part {
            case "", ".":
                continue
            case "..":
                guard !segments.isEmpty else { return .escapesRoot }
                segments.removeLast()
            default:
                segments.append(part)
            }
        }
        let namesFolder = parts.last.map { $0.isEmpty || $0 == "." || $0 == ".." } ?? true
        let joined = segments.joined(separator: "/")
        if namesFolder {
            let index = joined.isEmpty ? "index.html" : joined + "/index.html"
            return outputPaths.contains(index) ? .found(index) : .missing(index)
        }
        if outputPaths.contains(joined) { return .found(joined) }
        let index = joined + "/index.html"
        return outputPaths.contains(index) ? .found(index) : .missing(joined)
    }

    /// The URLs of a `srcset` attribute, without their width or density descriptors.
    static func sourceSetURLs(_ srcset: String) -> [String] {
        var urls: [String] = []
        var rest = srcset[...]
        while true {
            rest = rest.drop { $0.isASCIIWhitespace || $0 == "," }
            guard !rest.isEmpty else { return urls }
            let url = rest.prefix { !$0.isASCIIWhitespace }
            rest = rest[url.endIndex...]
            var trimmedURL = url
            while trimmedURL.last == "," { trimmedURL = trimmedURL.dropLast() }
            if !trimmedURL.isEmpty { urls.append(String(trimmedURL)) }
            if trimmedURL.count == url.count {
                // Skip the descriptors up to the comma that ends this candidate.
                var depth = 0
                while let character = rest.first, depth > 0 || character != "," {
                    if character == "(" { depth += 1 } else if character == ")" { depth = max(0, depth - 1) }
                    rest = rest.dropFirst()
                }
            }
        }
    }

    /// Whether `reference` starts with `scheme:` (RFC 3986: a letter, then letters, digits, `+-.`).
    static func hasScheme(_ reference: String) -> Bool {
        var sawLetter = false
        for byte in reference.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                sawLetter = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                guard sawLetter else { return false }
            case UInt8(ascii: ":"):
                return sawLetter
            default:
                return false
            }
        }
        return false
    }

    /// `text` with `%XX` escapes decoded, or `nil` if an escape is broken or the result is not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Character {
    fileprivate var isASCIIWhitespace: Bool {
        self == " " || self == "\t" || self == "\n" || self == "\r" || self == "\r\n" || self == "\u{0C}"
    }
}

extension String {
    fileprivate func trimmingASCIIWhitespace() -> String {
        let scalars = unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return self }
        return String(scalars[first...last])
    }
}
