/// What `gallery.toml`'s text must be before toml++ reads it: toml++ stops at a NUL without a
/// word, and asserts (aborting the process) on a section name that starts badly, so both are
/// found first and reported at their place.
extension SiteConfig {
    /// The first control character TOML does not allow (all but tab, line feed and carriage
    /// return), where it is and what to do. TOML's parser reads up to a NUL and no further, so
    /// the settings after one, and a UTF-16 file's (every other byte a NUL), were ignored.
    static func controlCharacterProblem(in bytes: [UInt8]) -> (message: String, position: SourcePosition)? {
        guard let index = bytes.firstIndex(where: { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }) else { return nil }
        let position = bytes.withUnsafeBufferPointer { TemplateAttribution.position(ofByte: index, in: $0) }
        let byte = bytes[index]
        let name = "U+" + String(repeating: "0", count: byte < 0x10 ? 3 : 2) + String(byte, radix: 16, uppercase: true)
        let nuls = bytes.count { $0 == 0 }
        let advice = nuls * 4 >= bytes.count
            ? "the file looks like UTF-16 (every other byte is zero); save it as UTF-8"
            : byte == 0 ? "delete it" : "delete it (or write \\u\(name.dropFirst(2)) inside a string, if it is meant)"
        return ("gallery.toml holds the control character \(name)\(byte == 0 ? " (NUL)" : ""), which TOML does not allow; \(advice)", position)
    }

    /// An escaped NUL (`\u0000`, `\U00000000`), where it is: TOML's parser hands gallery its
    /// strings as C strings, which end at a NUL, so `title = "a\u0000bc"` published "a".
    static func escapedNULProblem(in bytes: [UInt8]) -> (message: String, position: SourcePosition)? {
        for escape in ["\\u0000", "\\U00000000"] {
            let run = Array(escape.utf8)
            var index = 0
            while index + run.count <= bytes.count {
                // Not `\\u0000`: an escaped backslash, then text.
                if bytes[index..<index + run.count].elementsEqual(run), index == 0 || bytes[index - 1] != UInt8(ascii: "\\") {
                    let position = bytes.withUnsafeBufferPointer { TemplateAttribution.position(ofByte: index, in: $0) }
                    return ("gallery.toml holds \(escape) (NUL) in a string, where the text would end: what follows it would be lost; delete it", position)
                }
                index += 1
            }
        }
        return nil
    }

    /// A section header whose name starts with a character no name can start with (`[é]`,
    /// `[=]`, `[ |a]`), where it is and what to do; `nil` when every header starts well.
    ///
    /// toml++ asserts, rather than reports, that a header's name starts with a bare key's
    /// character or a quote: such a line aborted every command that reads the settings. So the
    /// headers are found first, as TOML finds them: a `[` that begins a line outside a string
    /// and outside an array value that spans lines.
    static func tableHeaderProblem(in bytes: [UInt8]) -> (message: String, position: SourcePosition)? {
        enum Text { case code, basic, literal, multilineBasic, multilineLiteral }
        func isNameStart(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "]"): true
            default: false
            }
        }
        func starts(_ run: String, at index: Int) -> Bool {
            let run = Array(run.utf8)
            return index + run.count <= bytes.count && bytes[index..<index + run.count].elementsEqual(run)
        }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var text = Text.code
        var depth = 0  // of `[` in a value: a line inside an array is not a header
        var lineStart = true
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch text {
            case .basic, .multilineBasic:
                if byte == UInt8(ascii: "\\") { index += 2; continue }
                if text == .basic, byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\n") { text = .code }
                if text == .multilineBasic, starts("\"\"\"", at: index) { text = .code; index += 3; continue }
                index += 1
                continue
            case .literal:
                if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\n") { text = .code }
                index += 1
                continue
            case .multilineLiteral:
                if starts("'''", at: index) { text = .code; index += 3; continue }
                index += 1
                continue
            case .code:
                break
            }
            if byte == UInt8(ascii: "\n") { lineStart = true; index += 1; continue }
            if isBlank(byte) || byte == UInt8(ascii: "\r") { index += 1; continue }
            let atLineStart = lineStart
            lineStart = false
            switch byte {
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            case UInt8(ascii: "\""):
                text = starts("\"\"\"", at: index) ? .multilineBasic : .basic
                index += text == .basic ? 1 : 3
                continue
            case UInt8(ascii: "'"):
                text = starts("'''", at: index) ? .multilineLiteral : .literal
                index += text == .literal ? 1 : 3
                continue
            case UInt8(ascii: "[") where atLineStart && depth == 0:
                // A header: `[name]` or `[[name]]`, blanks allowed inside the brackets.
                var name = index + 1
                while name < bytes.count, isBlank(bytes[name]) { name += 1 }
                if name < bytes.count, bytes[name] == UInt8(ascii: "[") { name += 1 }
                while name < bytes.count, isBlank(bytes[name]) { name += 1 }
                if name < bytes.count, !isNameStart(bytes[name]), bytes[name] != UInt8(ascii: "\n"), bytes[name] != UInt8(ascii: "\r") {
                    let position = bytes.withUnsafeBufferPointer { TemplateAttribution.position(ofByte: name, in: $0) }
                    var end = name + 1
                    while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
                    let character = String(decoding: bytes[name..<end], as: UTF8.self)
                    return ("a section name cannot start with '\(character)': a name is ASCII letters, digits, _ and -, or any text in quotes (as [\"\(character)…\"])", position)
                }
                // The rest of the line is the header's: its brackets are not an array's.
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
                    if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") || bytes[index] == UInt8(ascii: "#") { break }
                    index += 1
                }
                continue
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth = max(0, depth - 1)
            default: break
            }
            index += 1
        }
        return nil
    }
}
