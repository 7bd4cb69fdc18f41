/// Resolves the URLs in one output file to files of the finished output folder.
///
/// Internal references (no scheme, not `//host`) lose their `?query` and `#fragment`, are
/// percent-decoded and resolved against the file's folder, or against the site's base path when
/// they start with `/`; one with `//` further on in its path is faulted (``Outcome/emptySegment``). A reference ending in `/`, or naming a folder, means that folder's
/// `index.html`, as a static web server serves it. Works on UTF-8 bytes straight from libxml2:
/// a page has dozens of references and 10 000 pages are checked per build.
struct ReferenceResolver: Sendable {
    /// What a reference turned out to be.
    enum Outcome: Equatable, Sendable {
        /// A URL with a scheme or a host: not checked.
        case external
        /// A `javascript:` or `vbscript:` URL: script a page would run on the site's origin.
        case script
        /// The file itself (``, `?query`, `#`, `#top`).
        case sameFile
        /// A fragment of the file itself, percent-decoded: it must name an `id` there.
        case fragment(String)
        /// A file in the output (its path, unless resolved with `naming: false`).
        case found(String)
        /// No such file; the path it resolved to.
        case missing(String)
        /// `..` climbed above the output root.
        case escapesRoot
        /// A root-relative reference outside the site's base path.
        case outsideBasePath
        /// Broken `%` escapes, or bytes that are not UTF-8 once decoded.
        case malformed
        /// A path with an empty segment (`.//about/`, `/a//b`): browsers keep the `//`, so it
        /// names another address than the file it seems to (a server refuses it, or serves
        /// another page), though the folder walk here would step over it.
        case emptySegment
    }

    /// Every file the output folder will hold.
    let outputPaths: OutputPathIndex
    /// The base URL's path, with a leading and a trailing `/`.
    let basePath: String
    private let basePathBytes: [UInt8]
    /// The folder that holds the file being checked (`albums/a`; empty at the root).
    private let folder: [UInt8]

    /// A resolver for references that appear in the file at `path` (relative to the output root).
    init(outputPaths: OutputPathIndex, basePath: String, path: String) {
        self.outputPaths = outputPaths
        self.basePath = basePath
        // As the references it is compared with are, once decoded: a base path copied from a
        // browser's address bar (`/caf%C3%A9/`) put every link of the site outside it.
        let bytes = Array(basePath.utf8)
        self.basePathBytes = bytes.contains(UInt8(ascii: "%")) ? bytes.withUnsafeBufferPointer { Self.percentDecoded($0) } ?? bytes : bytes
        // The page's folders, joined by single slashes: its path up to the last slash, less
        // empty segments (made byte by byte; splitting and joining strings allocated a few
        // times for every page a build checks).
        var folder: [UInt8] = []
        let utf8 = Array(path.utf8)
        if let last = utf8.lastIndex(of: UInt8(ascii: "/")) {
            folder.reserveCapacity(last)
            for byte in utf8[..<last] where !(byte == UInt8(ascii: "/") && (folder.isEmpty || folder.last == UInt8(ascii: "/"))) {
                folder.append(byte)
            }
            if folder.last == UInt8(ascii: "/") { folder.removeLast() }
        }
        self.folder = folder
    }

    /// Resolves one reference as written in an attribute.
    func resolve(_ reference: String) -> Outcome {
        var reference = reference
        return reference.withUTF8 { resolve($0) }
    }

    /// Resolves one reference given as the UTF-8 bytes of an attribute value.
    ///
    /// With `naming: false`, `.found` carries an empty path: the stream checks only need to know
    /// the file is there, and handing out the stored path would count references to one `String`
    /// from every thread checking pages.
    func resolve(_ reference: UnsafeBufferPointer<UInt8>, naming: Bool = true) -> Outcome {
        var start = 0
        var end = reference.count
        while start < end, isSpace(reference[start]) { start += 1 }
        while end > start, isSpace(reference[end - 1]) { end -= 1 }
        guard start < end else { return .sameFile }
        let text = UnsafeBufferPointer(rebasing: reference[start..<end])
        if Self.hasScheme(text) { return Self.isScript(text) ? .script : .external }
        if text.count > 1 && text[0] == slash && text[1] == slash { return .external }
        let hash = text.firstIndex(of: UInt8(ascii: "#"))
        let beforeHash = hash ?? text.count
        let pathEnd = text[..<beforeHash].firstIndex(of: UInt8(ascii: "?")) ?? beforeHash
        guard pathEnd > 0 else {
            guard let hash, hash + 1 < text.count else { return .sameFile }
            let fragment = UnsafeBufferPointer(rebasing: text[(hash + 1)...])
            let id = Self.percentDecoded(fragment).flatMap { String(validating: $0, as: UTF8.self) }
                ?? String(decoding: fragment, as: UTF8.self)
            return id.lowercased() == "top" ? .sameFile : .fragment(id)
        }
        let path = UnsafeBufferPointer(rebasing: text[..<pathEnd])
        // `//` at the start is a host (external, above); anywhere after it, an empty segment.
        for index in 1..<path.count where path[index] == slash && path[index - 1] == slash { return .emptySegment }
        guard path.contains(UInt8(ascii: "%")) else { return resolve(path: path, naming: naming) }
        guard let decoded = Self.percentDecoded(path), String(validating: decoded, as: UTF8.self) != nil else { return .malformed }
        return decoded.withUnsafeBufferPointer { resolve(path: $0, naming: naming) }
    }

    /// `/index.html`, appended to a path that names a folder.
    private static let indexSuffix = Array("/index.html".utf8)

    private func resolve(path: UnsafeBufferPointer<UInt8>, naming: Bool) -> Outcome {
        let suffix = Self.indexSuffix
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: folder.count + path.count + suffix.count + 1) { buffer in
            var length = 0
            func append(_ bytes: UnsafeBufferPointer<UInt8>) {
                guard let source = bytes.baseAddress, let target = buffer.baseAddress else { return }
                (target + length).update(from: source, count: bytes.count)
                length += bytes.count
            }
            func append(_ byte: UInt8) {
                buffer[length] = byte
                length += 1
            }
            func found(_ file: UnsafeBufferPointer<UInt8>) -> Outcome? {
                guard naming else { return outputPaths.contains(file) ? .found("") : nil }
                return outputPaths.path(matching: file).map(Outcome.found)
            }
            var index = 0
            if path[0] == slash {
                if path.elementsEqual(basePathBytes.dropLast()) {
                    index = path.count
                } else if path.starts(with: basePathBytes) {
                    index = basePathBytes.count
                } else {
                    return .outsideBasePath
                }
            } else {
                folder.withUnsafeBufferPointer { append($0) }
            }
            var namesFolder = true
            while index <= path.count {
                var segmentEnd = index
                while segmentEnd < path.count, path[segmentEnd] != slash { segmentEnd += 1 }
                let segment = path[index..<segmentEnd]
                if segment.isEmpty || (segment.count == 1 && path[index] == dot) {
                    namesFolder = true
                } else if segment.count == 2, path[index] == dot, path[index + 1] == dot {
                    guard length > 0 else { return .escapesRoot }
                    repeat { length -= 1 } while length > 0 && buffer[length] != slash
                    namesFolder = true
                } else {
                    if length > 0 { append(slash) }
                    append(UnsafeBufferPointer(rebasing: segment))
                    namesFolder = false
                }
                index = segmentEnd + 1
            }
            let file = UnsafeBufferPointer(rebasing: buffer[0..<length])
            if !namesFolder, let outcome = found(file) { return outcome }
            let missing = namesFolder ? nil : String(decoding: file, as: UTF8.self)
            suffix.withUnsafeBufferPointer { append(UnsafeBufferPointer(rebasing: $0.dropFirst(length == 0 ? 1 : 0))) }
            let folderIndex = UnsafeBufferPointer(rebasing: buffer[0..<length])
            if let outcome = found(folderIndex) { return outcome }
            return .missing(missing ?? String(decoding: folderIndex, as: UTF8.self))
        }
    }

    /// `reference` with each run of slashes in its path made one (`.//about/` gives
    /// `./about/`): what a link with an empty segment was meant to be. The query and fragment
    /// are left as they are.
    static func collapsingSlashes(_ reference: String) -> String {
        let end = reference.firstIndex { $0 == "?" || $0 == "#" } ?? reference.endIndex
        var path = ""
        for character in reference[..<end] where !(character == "/" && path.last == "/") { path.append(character) }
        return path + reference[end...]
    }

    /// Calls `body` with each URL of a `srcset` attribute, without its width or density descriptor.
    static func forEachSourceSetURL(_ srcset: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var index = 0
        while true {
            while index < srcset.count, isSpace(srcset[index]) || srcset[index] == comma { index += 1 }
            guard index < srcset.count else { return }
            let start = index
            while index < srcset.count, !isSpace(srcset[index]) { index += 1 }
            var end = index
            while end > start, srcset[end - 1] == comma { end -= 1 }
            if end > start { body(UnsafeBufferPointer(rebasing: srcset[start..<end])) }
            guard end == index else { continue }
            // Skip the descriptors up to the comma that ends this candidate.
            var depth = 0
            while index < srcset.count, depth > 0 || srcset[index] != comma {
                if srcset[index] == UInt8(ascii: "(") { depth += 1 }
                if srcset[index] == UInt8(ascii: ")") { depth = max(0, depth - 1) }
                index += 1
            }
        }
    }

    /// The URLs of a `srcset` attribute, without their descriptors.
    static func sourceSetURLs(_ srcset: String) -> [String] {
        var srcset = srcset
        var urls: [String] = []
        srcset.withUTF8 { bytes in forEachSourceSetURL(bytes) { urls.append(String(decoding: $0, as: UTF8.self)) } }
        return urls
    }

    /// Whether a reference with a scheme names script (`javascript:`, `vbscript:`, any case).
    static func isScript(_ reference: UnsafeBufferPointer<UInt8>) -> Bool {
        for scheme in ["javascript:", "vbscript:"] where reference.count >= scheme.utf8.count {
            if zip(reference, scheme.utf8).allSatisfy({ $0 | 0x20 == $1 || $0 == $1 }) { return true }
        }
        return false
    }

    /// Whether a value a browser goes to as a URL, but that names no file of the output (a
    /// form's `action`, a button's `formaction`, an SVG animation's `to`), is script. As a
    /// browser's URL parser does, ASCII tabs and newlines anywhere are dropped, and spaces and
    /// control characters at the start; spaces inside too, as XML reads a newline in an
    /// attribute as one, where the HTML parser a browser reads the page with keeps it. With
    /// `list`, each of the `;`-separated values of an animation's `values` is one.
    static func namesScript(_ value: UnsafeBufferPointer<UInt8>, list: Bool = false) -> Bool {
        var start = value.startIndex
        while start < value.endIndex {
            var end = start
            if list { while end < value.endIndex, value[end] != UInt8(ascii: ";") { end += 1 } } else { end = value.endIndex }
            // Enough of the value, cleaned, to hold the longest scheme.
            var head: [UInt8] = []
            for byte in value[start..<end] where head.count < 11 {
                if byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x20 { continue }
                if head.isEmpty, byte <= 0x20 { continue }
                head.append(byte)
            }
            if head.withUnsafeBufferPointer({ isScript($0) }) { return true }
            start = end + 1
        }
        return false
    }

    /// Whether `reference` starts with `scheme:` (RFC 3986: a letter, then letters, digits, `+-.`).
    static func hasScheme(_ reference: UnsafeBufferPointer<UInt8>) -> Bool {
        for (offset, byte) in reference.enumerated() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                guard offset > 0 else { return false }
            case UInt8(ascii: ":"):
                return offset > 0
            default:
                return false
            }
        }
        return false
    }

    /// `text` with `%XX` escapes decoded, or `nil` if an escape is broken.
    static func percentDecoded(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            guard text[index] == UInt8(ascii: "%") else {
                bytes.append(text[index])
                index += 1
                continue
            }
            guard index + 2 < text.count, let high = hexValue(text[index + 1]), let low = hexValue(text[index + 2]) else { return nil }
            bytes.append(high << 4 | low)
            index += 3
        }
        return bytes
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

private let slash = UInt8(ascii: "/")
private let dot = UInt8(ascii: ".")
private let comma = UInt8(ascii: ",")

/// HTML's ASCII whitespace: space, tab, line feed, form feed, carriage return.
private func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
}

extension ReferenceResolver.Outcome {
    /// What is wrong with a reference that resolved to this outcome, as a diagnostic's message
    /// that starts with `subject` (`link to 'x'`, `url('x')`); `nil` when nothing is (a found
    /// file, an external URL, the file itself, a fragment, which is checked against the ids).
    func problem(subject: String, reference: String, basePath: String) -> String? {
        switch self {
        case .external, .sameFile, .found, .fragment:
            nil
        case .script:
            "\(subject) is script, which is not published (album text in a link would run on the site); use a <button> and a script under assets/"
        case .missing(let resolved):
            "broken \(subject) (no such file in the output: \(resolved))"
        case .escapesRoot:
            "\(subject) climbs above the output root"
        case .outsideBasePath:
            "\(subject) is outside the site's base path '\(basePath)'"
        case .malformed:
            "\(subject) is not a valid path (a broken %-escape, or not UTF-8 once decoded)"
        case .emptySegment:
            "\(subject) has an empty path segment ('//'), which browsers keep, so it leads elsewhere; write '\(ReferenceResolver.collapsingSlashes(reference))'"
        }
    }
}
