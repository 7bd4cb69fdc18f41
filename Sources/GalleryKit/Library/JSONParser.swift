/// A strict RFC 8259 JSON parser that records the position of every value and key.
public struct JSONParser {
    /// Why a text is not JSON, and where.
    public struct SyntaxError: Error, Sendable, Hashable {
        /// Where the problem is.
        public var position: SourcePosition
        /// What is wrong, in words.
        public var message: String
    }

    // Internal, not private: the archive's fast path (ArchiveFastPath.swift) reads with them.
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0
    private var depth = 0

    /// The deepest nesting accepted; deeper input is refused rather than overflowing the stack.
    public static let maximumDepth = 200

    /// Parses a whole document: one value, surrounded only by whitespace.
    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let node = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected text after the end of the JSON value")
        }
        return node
    }

    /// A parser at the start of `bytes`, after any byte-order mark.
    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { (index, lineStart) = (3, 3) }
    }

    /// The last column computed on the current line, so positions on a long (minified) line cost
    /// amortised constant time instead of a rescan from the line's start.
    private var columnMark = (index: 0, column: 1)

    var position: SourcePosition {
        mutating get {
            if columnMark.index < lineStart || columnMark.index > index { columnMark = (lineStart, 1) }
            // Columns count scalars: skip UTF-8 continuation bytes.
            var column = columnMark.column
            var i = columnMark.index
            while i < index {
                if bytes[i] & 0xC0 != 0x80 { column += 1 }
                i += 1
            }
            columnMark = (index, column)
            return SourcePosition(line: line, column: column)
        }
    }

    private mutating func error(_ message: String) -> SyntaxError {
        // UTF-16 (Windows's "Unicode"): every other byte a NUL, perhaps after its byte-order mark.
        let start = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) ? 2 : 0
        if bytes.count >= start + 2, bytes[start] == 0 || bytes[start + 1] == 0 {
            return SyntaxError(position: SourcePosition(line: 1, column: 1), message: "the file is not UTF-8 text: it looks like UTF-16 (an editor's \"Unicode\"); save it as UTF-8")
        }
        return SyntaxError(position: position, message: message + (Self.lookAlike(in: bytes, at: index).map { "; \($0)" } ?? ""))
    }

    /// What a character at `index` that looks like a space (or is invisible) is, for a message:
    /// JSON's whitespace is the space, tab, line feed and carriage return only, so an
    /// indentation pasted from a web page or a word processor stopped the parser with no word
    /// of the character it met.
    static func lookAlike(in bytes: [UInt8], at index: Int) -> String? {
        let rest = bytes[min(index, bytes.count)...]
        let names: [([UInt8], String)] = [
            ([0xC2, 0xA0], "U+00A0, a no-break space"), ([0xE3, 0x80, 0x80], "U+3000, an ideographic space"),
            ([0xE2, 0x80, 0x8B], "U+200B, a zero-width space"), ([0xEF, 0xBB, 0xBF], "U+FEFF, a byte-order mark"),
            ([0x0C], "U+000C, a form feed"), ([0x0B], "U+000B, a vertical tab"), ([0x00], "U+0000, a NUL"),
        ]
        if let (_, name) = names.first(where: { rest.starts(with: $0.0) }) {
            return "here is \(name), which JSON does not take for a space: delete it or write a space"
        }
        // U+2000 to U+200A, spaces of typography.
        if rest.starts(with: [0xE2, 0x80]), rest.count > 2, (0x80...0x8A).contains(rest[rest.startIndex + 2]) {
            let digits = String(rest[rest.startIndex + 2] - 0x80, radix: 16, uppercase: true)
            return "here is U+20\(digits.count == 1 ? "0" + digits : digits), a typographic space, which JSON does not take for a space: delete it or write a space"
        }
        return nil
    }

    /// Where the parser was, to tell a fault there later: the position is worked out only if one is.
    private typealias Mark = (index: Int, line: Int, lineStart: Int)

    private var mark: Mark { (index, line, lineStart) }

    /// An error at `mark` rather than here (after a value: where a missing comma goes).
    private mutating func error(_ message: String, at mark: Mark) -> SyntaxError {
        (index, line, lineStart) = mark
        return error(message)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    private mutating func parseValue() throws(SyntaxError) -> JSONNode {
        guard index < bytes.count else { throw error("unexpected end of file; a value was expected") }
        let start = position
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return JSONNode(value: try parseObject(), position: start)
        case UInt8(ascii: "["):
            return JSONNode(value: try parseArray(), position: start)
        case UInt8(ascii: "\""):
            return JSONNode(value: .string(try parseString()), position: start)
        case UInt8(ascii: "t"):
            try expectWord("true")
            return JSONNode(value: .bool(true), position: start)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return JSONNode(value: .bool(false), position: start)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return JSONNode(value: .null, position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try parseNumber()), position: start)
        case let byte:
            if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                throw error("a value was expected before '\(Character(Unicode.Scalar(byte)))' (a trailing comma?)")
            }
            if byte == UInt8(ascii: "'") { throw error("strings must use double quotes") }
            throw error("unexpected character; a value was expected")
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(SyntaxError) {
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected in
            index + count <= bytes.count && bytes[index..<index + count].elementsEqual(expected)
        }
        guard matches else { throw error("unexpected word; a value was expected") }
        index += count
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONNode.Value {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [JSONNode.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file inside an object") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "}") { throw error("a key was expected before '}' (a trailing comma?)") }
                throw error("an object key in double quotes was expected")
            }
            let keyPosition = position
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("':' was expected after the key \"\(key)\"") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONNode.Member(key: key, position: keyPosition, value: value))
            let afterValue = mark
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file inside an object; '}' was expected") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            // Told where the fix goes: a comma left out at the end of a line is found on the next
            // line's key, and a quote inside a title ends the text early.
            if line > afterValue.line, bytes[index] == UInt8(ascii: "\"") {
                throw error("',' was expected after the value of \"\(key)\" (a comma missing at the end of the line?)", at: afterValue)
            }
            if case .string = value.value, line == afterValue.line {
                throw error("',' or '}' was expected after the text of \"\(key)\"; a quote inside a text is written \\\" (\"Tom \\\"Big\\\" Jerry\")", at: afterValue)
            }
            throw error("',' or '}' was expected")
        }
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONNode.Value {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            let afterValue = mark
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file inside an array; ']' was expected") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            if line > afterValue.line, bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "\"") {
                throw error("',' was expected after this value of the list (a comma missing at the end of the line?)", at: afterValue)
            }
            throw error("',' or ']' was expected")
        }
    }

    mutating func parseString() throws(SyntaxError) -> String {
        index += 1
        // Most strings hold neither an escape nor a control character: find the closing quote
        // in one unchecked pass and make the string from that run.
        let plainEnd = bytes.withUnsafeBufferPointer { buffer in
            var end = index
            while end < buffer.count {
                let byte = buffer[end]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                end += 1
            }
            return end
        }
        if plainEnd < bytes.count, bytes[plainEnd] == UInt8(ascii: "\"") {
            guard let text = bytes.withUnsafeBufferPointer({ Self.string(validating: UnsafeBufferPointer(rebasing: $0[index..<plainEnd])) }) else {
                index = plainEnd
                throw error("this string is not valid UTF-8")
            }
            index = plainEnd + 1
            return text
        }
        var runStart = index
        index = plainEnd
        var decoded: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unexpected end of file inside a string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                // Only a string with an escape gets here, so `decoded` holds its start.
                defer { index += 1 }
                decoded.append(contentsOf: bytes[runStart..<index])
                break
            }
            if byte < 0x20 {
                throw error(byte == 0x0A ? "a string may not span lines; write \\n" : "control characters must be escaped in strings")
            }
            if byte == UInt8(ascii: "\\") {
                decoded.append(contentsOf: bytes[runStart..<index])
                index += 1
                guard index < bytes.count else { throw error("unexpected end of file inside a string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): decoded.append(0x22)
                case UInt8(ascii: "\\"): decoded.append(0x5C)
                case UInt8(ascii: "/"): decoded.append(0x2F)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    var value = try parseHex4()
                    if (0xD800...0xDBFF).contains(value) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("a lone UTF-16 surrogate in a \\u escape")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(value) {
                        throw error("a lone UTF-16 surrogate in a \\u escape")
                    }
                    guard let scalar = Unicode.Scalar(value) else { throw error("an invalid \\u escape") }
                    decoded.append(contentsOf: Array(String(scalar).utf8))
                default:
                    index -= 1
                    throw error("an unknown escape sequence in a string")
                }
                runStart = index
                continue
            }
            index += 1
        }
        guard let text = decoded.withUnsafeBufferPointer(Self.string(validating:)) else {
            throw error("the string before this point is not valid UTF-8")
        }
        return text
    }

    /// The text of `bytes` if they are valid UTF-8: the same answer as `String(validating:as:)`,
    /// without the cost of its generic path on each of 60 000 strings. Decoding repairs invalid
    /// UTF-8, so valid bytes are exactly those that come back unchanged.
    static func string(validating bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        var ascii = true
        for byte in bytes where byte >= 0x80 {
            ascii = false
            break
        }
        if ascii { return text }
        var copy = text
        let same = copy.withUTF8 { $0.elementsEqual(bytes) }
        return same ? text : nil
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    mutating func parseNumber() throws(SyntaxError) -> String {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else {
            throw error("a digit was expected in the number")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                throw error("numbers may not have leading zeros")
            }
        } else {
            _ = digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("a digit was expected after the decimal point") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("a digit was expected in the exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
