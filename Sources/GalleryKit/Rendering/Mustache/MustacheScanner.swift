/// Splits template bytes into lines of text and tags, following set-delimiter tags as it goes.
///
/// A line ends at `\n` (a preceding `\r` belongs to the line break). A tag that spans line
/// breaks (a multi-line comment) stays on the line where it starts, so the line after it
/// continues that line, as the specification's standalone rules need.
struct MustacheScanner {
    /// What a tag is, from its sigil.
    enum TagKind: Equatable, Sendable {
        case variable, unescaped, section, inverted, close, comment, partial, parent, block, delimiters

        /// Whether a line holding only this tag (and whitespace) disappears from the output.
        var canStandAlone: Bool {
            switch self {
            case .variable, .unescaped: false
            default: true
            }
        }
    }

    /// A tag: its kind, its name (empty for comments and set-delimiter tags) and where it starts.
    struct Tag: Sendable {
        var kind: TagKind
        var name: String
        var position: SourcePosition
    }

    /// A piece of a line: literal text (with the line it is on) or a tag.
    enum Token: Sendable {
        case text([UInt8], line: Int)
        case tag(Tag)
    }

    /// A template line: its tokens and its line break (empty for the last line).
    struct Line: Sendable {
        var tokens: [Token] = []
        var newline: [UInt8] = []
        /// The template line it starts on.
        var number: Int
        /// The template line its line break is on (later than `number` after a multi-line tag).
        var newlineLine: Int
    }

    private let bytes: [UInt8]
    private var open: [UInt8] = Array("{{".utf8)
    private var close: [UInt8] = Array("}}".utf8)
    private var lines: [Line] = []
    private var line = Line(number: 1, newlineLine: 1)
    private var lineNumber = 1
    /// The last offset whose column is known on the current line, for counting columns without
    /// rescanning the line for every tag.
    private var columnMark = (offset: 0, column: 1)
    private var textStart = 0

    /// Scans a whole template into lines.
    ///
    /// - Returns: The lines, and the first error if a tag is never closed, has no name, has a
    ///   name with spaces, or is a malformed set-delimiter tag; the lines then stop before that
    ///   tag, so the caller can still report an earlier problem (a mismatched close) first.
    static func lines(of bytes: [UInt8]) -> (lines: [Line], error: MustacheSyntaxError?) {
        var scanner = MustacheScanner(bytes: bytes)
        do {
            return (try scanner.scan(), nil)
        } catch {
            scanner.lines.append(scanner.line)
            return (scanner.lines, error)
        }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func scan() throws(MustacheSyntaxError) -> [Line] {
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                var textEnd = index
                if textEnd > textStart, bytes[textEnd - 1] == UInt8(ascii: "\r") { textEnd -= 1 }
                flushText(upTo: textEnd)
                line.newline = Array(bytes[textEnd...index])
                line.newlineLine = lineNumber
                lines.append(line)
                index += 1
                startLine(at: index)
                line = Line(number: lineNumber, newlineLine: lineNumber)
                continue
            }
            guard Self.matches(open, in: bytes, at: index) else {
                index += 1
                continue
            }
            flushText(upTo: index)
            index = try scanTag(at: index)
            textStart = index
        }
        flushText(upTo: bytes.count)
        line.newlineLine = lineNumber
        lines.append(line)
        return lines
    }

    private mutating func startLine(at offset: Int) {
        lineNumber += 1
        columnMark = (offset, 1)
        textStart = offset
    }

    private mutating func flushText(upTo end: Int) {
        if end > textStart { line.tokens.append(.text(Array(bytes[textStart..<end]), line: lineNumber)) }
    }

    /// The 1-based position of a byte offset on the current line; columns count Unicode scalars.
    private mutating func position(_ offset: Int) -> SourcePosition {
        var column = columnMark.column
        for byte in bytes[columnMark.offset..<offset] where byte & 0xC0 != 0x80 { column += 1 }
        columnMark = (offset, column)
        return SourcePosition(line: lineNumber, column: column)
    }

    /// Reads the tag starting at `index` and returns the offset after it.
    private mutating func scanTag(at index: Int) throws(MustacheSyntaxError) -> Int {
        let tagPosition = position(index)
        var cursor = index + open.count
        var kind = TagKind.variable
        var closing = close
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "{") {
            kind = .unescaped
            closing = [UInt8(ascii: "}")] + close
            cursor += 1
        }
        guard let end = Self.find(closing, in: bytes, from: cursor) else {
            throw unclosed(at: index, closing: closing, position: tagPosition)
        }
        let raw = Substring(String(decoding: bytes[cursor..<end], as: UTF8.self))
        var content = raw.trimmed
        if kind == .variable, let sigil = content.first, let sigilKind = Self.sigils[sigil] {
            kind = sigilKind
            content = content.dropFirst()
            if kind == .delimiters {
                guard content.hasSuffix("=") else {
                    throw MustacheSyntaxError(message: "a set-delimiter tag must end with '=', as in {{=<% %>=}}", position: tagPosition)
                }
                content = content.dropLast()
            }
            content = content.trimmed
        }
        switch kind {
        case .delimiters:
            let parts = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count == 2, !parts.contains(where: { $0.contains("=") }) else {
                throw MustacheSyntaxError(message: "a set-delimiter tag needs two delimiters without spaces or '=', as in {{=<% %>=}}", position: tagPosition)
            }
            open = Array(parts[0].utf8)
            close = Array(parts[1].utf8)
            content = ""
        case .comment:
            content = ""
        default:
            guard !content.isEmpty else {
                throw MustacheSyntaxError(message: "this tag has no name", position: tagPosition)
            }
            // The closing found belongs to a later tag when the text runs into that tag's
            // opening, or when a name with a space in it breaks over lines or holds part of a
            // closing (`{{album.artist} by`): this tag was left open.
            let opening = String(decoding: open, as: UTF8.self)
            let hasSpace = content.contains { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r\n" }
            if raw.contains(opening) || hasSpace && (content.contains { $0 == "\n" || $0 == "\r\n" } || content.utf8.contains(closing[0])) {
                throw unclosed(at: index, closing: closing, position: tagPosition)
            }
            guard !hasSpace else {
                // Hugo's Go templates: {{ if .Params.x }}…{{ end }}, {{ range … }}, {{- .Title -}}.
                let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
                let goWords: Set<Substring> = ["if", "else", "with", "range", "end", "-", "define", "block", "template", "partial"]
                let go = words.first.map { goWords.contains($0) || $0.hasPrefix(".") || $0.hasPrefix("$") } ?? false
                let hint = go ? "; this is Go template syntax, as Hugo's: Mustache writes a section as {{#album.params.price}}…{{/album.params.price}} (shown when the value is there), {{^name}}…{{/name}} for its absence, and a value as {{album.title}}" : ""
                throw MustacheSyntaxError(message: "'\(content)' is not a valid name (names have no spaces)\(hint)", position: tagPosition)
            }
        }
        line.tokens.append(.tag(Tag(kind: kind, name: String(content), position: tagPosition)))
        // Line breaks inside a tag (multi-line comments) still count for later positions.
        for offset in cursor..<end where bytes[offset] == UInt8(ascii: "\n") {
            lineNumber += 1
            columnMark = (offset + 1, 1)
        }
        return end + closing.count
    }

    /// The error for a tag at `index` that is not closed, quoting the tag as far as its name
    /// goes (`{{album.artist}`), on one line, however far the text runs.
    private func unclosed(at index: Int, closing: [UInt8], position: SourcePosition) -> MustacheSyntaxError {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var cursor = index + open.count
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "{"), closing.count > close.count { cursor += 1 }
        while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
        if cursor < bytes.count, Self.sigils[Character(Unicode.Scalar(bytes[cursor]))] != nil {
            cursor += 1
            while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
        }
        // The name: up to a space, a line break, markup, or either delimiter's first character;
        // at most 40 bytes of it.
        let stops: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "<"), open[0], closing[0]]
        let nameStart = cursor
        while cursor < bytes.count, !stops.contains(bytes[cursor]), cursor - nameStart < 40 { cursor += 1 }
        // Back to the start of a character, so a long name is never cut inside one.
        while cursor > nameStart, cursor < bytes.count, bytes[cursor] & 0xC0 == 0x80 { cursor -= 1 }
        var end = cursor
        let cut = cursor < bytes.count && !stops.contains(bytes[cursor])
        if !cut {
            // Part of the closing, as the tag has it (`}` of `}}`), after any spaces.
            var after = cursor
            while after < bytes.count, isSpace(bytes[after]) { after += 1 }
            var matched = 0
            while matched < closing.count - 1, after + matched < bytes.count, bytes[after + matched] == closing[matched] { matched += 1 }
            if matched > 0 { end = after + matched }
        }
        let quote = String(decoding: bytes[index..<end], as: UTF8.self) + (cut ? "…" : "")
        return MustacheSyntaxError(message: "the tag '\(quote)' is not closed: it needs '\(String(decoding: closing, as: UTF8.self))'", position: position)
    }

    private static let sigils: [Character: TagKind] = [
        "#": .section, "^": .inverted, "/": .close, "!": .comment, ">": .partial,
        "<": .parent, "$": .block, "&": .unescaped, "=": .delimiters,
    ]

    /// Whether `bytes` holds `needle` at `index`.
    static func matches(_ needle: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
        guard index + needle.count <= bytes.count else { return false }
        for offset in 0..<needle.count where bytes[index + offset] != needle[offset] { return false }
        return true
    }

    /// The first index at or after `start` where `bytes` holds `needle`.
    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if matches(needle, in: bytes, at: index) { return index }
            index += 1
        }
        return nil
    }
}

extension Substring {
    /// The text without surrounding spaces, tabs and line breaks.
    var trimmed: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
        return self[first...last]
    }
}
