/// Turns template bytes into ``MustacheNode``s: tags are found with the current delimiters,
/// standalone lines are removed as the specification says, and sections are nested.
enum MustacheParser {
    /// What a tag is, from its sigil.
    enum TagKind: Equatable {
        case variable, unescaped, section, inverted, close, comment, partial, parent, block, delimiters

        /// Whether a line holding only this tag (and whitespace) disappears from the output.
        var canStandAlone: Bool {
            switch self {
            case .variable, .unescaped: false
            default: true
            }
        }
    }

    /// A token on a line: literal text or a tag.
    enum Token {
        case text([UInt8])
        case tag(TagKind, String, SourcePosition)
    }

    /// A template line: its tokens and its line break (empty for the last line).
    struct Line {
        var tokens: [Token] = []
        var newline: [UInt8] = []
        var number: Int
    }

    static func parse(_ bytes: [UInt8]) throws(MustacheSyntaxError) -> [MustacheNode] {
        try build(scan(bytes))
    }

    // MARK: Scanning

    static func scan(_ bytes: [UInt8]) throws(MustacheSyntaxError) -> [Line] {
        var open: [UInt8] = Array("{{".utf8)
        var close: [UInt8] = Array("}}".utf8)
        var lines: [Line] = []
        var line = Line(number: 1)
        var lineNumber = 1
        var lineStart = 0
        var textStart = 0
        var index = 0

        func position(_ offset: Int) -> SourcePosition {
            SourcePosition(line: lineNumber, column: String(decoding: bytes[lineStart..<offset], as: UTF8.self).unicodeScalars.count + 1)
        }
        func flushText(upTo end: Int) {
            if end > textStart { line.tokens.append(.text(Array(bytes[textStart..<end]))) }
        }

        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                var textEnd = index
                if textEnd > textStart, bytes[textEnd - 1] == UInt8(ascii: "\r") { textEnd -= 1 }
                flushText(upTo: textEnd)
                line.newline = Array(bytes[textEnd...index])
                lines.append(line)
                index += 1
                lineNumber += 1
                lineStart = index
                textStart = index
                line = Line(number: lineNumber)
                continue
            }
            guard matches(open, in: bytes, at: index) else {
                index += 1
                continue
            }
            flushText(upTo: index)
            let tagPosition = position(index)
            var cursor = index + open.count
            var kind = TagKind.variable
            var closing = close
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "{") {
                kind = .unescaped
                closing = Array("}".utf8) + close
                cursor += 1
            }
            guard let end = find(closing, in: bytes, from: cursor) else {
                throw MustacheSyntaxError(message: "this tag is never closed with '\(String(decoding: closing, as: UTF8.self))'", position: tagPosition)
            }
            var content = Substring(String(decoding: bytes[cursor..<end], as: UTF8.self))
            // Newlines inside a tag (multi-line comments) still count as lines.
            for offset in cursor..<end where bytes[offset] == UInt8(ascii: "\n") {
                lineNumber += 1
                lineStart = offset + 1
            }
            content = content.trimmed
            if kind == .variable, let sigil = content.first {
                let kinds: [Character: TagKind] = [
                    "#": .section, "^": .inverted, "/": .close, "!": .comment, ">": .partial,
                    "<": .parent, "$": .block, "&": .unescaped, "=": .delimiters,
                ]
                if let sigilKind = kinds[sigil] {
                    kind = sigilKind
                    content = content.dropFirst()
                    if kind == .delimiters {
                        guard content.hasSuffix("=") else {
                            throw MustacheSyntaxError(message: "a set-delimiter tag must end with '=' ({{=<% %>=}})", position: tagPosition)
                        }
                        content = content.dropLast()
                    }
                    content = content.trimmed
                }
            }
            if kind == .delimiters {
                let parts = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard parts.count == 2, !parts.contains(where: { $0.contains("=") }) else {
                    throw MustacheSyntaxError(message: "a set-delimiter tag needs two delimiters without '=' ({{=<% %>=}})", position: tagPosition)
                }
                open = Array(parts[0].utf8)
                close = Array(parts[1].utf8)
            } else if kind != .comment {
                guard !content.isEmpty else {
                    throw MustacheSyntaxError(message: "this tag has no name", position: tagPosition)
                }
                guard !content.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" }) else {
                    throw MustacheSyntaxError(message: "'\(content)' is not a valid name (names have no spaces)", position: tagPosition)
                }
            }
            line.tokens.append(.tag(kind, String(content), tagPosition))
            index = end + closing.count
            textStart = index
        }
        flushText(upTo: bytes.count)
        lines.append(line)
        return lines
    }

    static func matches(_ needle: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
        guard index + needle.count <= bytes.count else { return false }
        for offset in 0..<needle.count where bytes[index + offset] != needle[offset] { return false }
        return true
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if matches(needle, in: bytes, at: index) { return index }
            index += 1
        }
        return nil
    }

    // MARK: Building the tree

    /// A section, parent or block being filled.
    struct Container {
        var kind: TagKind
        var name: String
        var position: SourcePosition
        var nodes: [MustacheNode] = []
        var indentation: [UInt8] = []
    }

    static func build(_ lines: [Line]) throws(MustacheSyntaxError) -> [MustacheNode] {
        var stack = [Container(kind: .section, name: "", position: SourcePosition(line: 1, column: 1))]
        for line in lines {
            let standalone = standaloneTag(of: line)
            if standalone == nil { stack[stack.count - 1].nodes.append(.indent) }
            for token in line.tokens {
                switch token {
                case .text(let bytes):
                    if standalone == nil { stack[stack.count - 1].nodes.append(.text(bytes, line: line.number)) }
                case .tag(let kind, let name, let position):
                    let indentation = standalone?.indentation ?? []
                    try add(kind, name, position, indentation: indentation, to: &stack)
                }
            }
            if standalone == nil, !line.newline.isEmpty {
                stack[stack.count - 1].nodes.append(.text(line.newline, line: line.number))
            }
        }
        guard stack.count == 1 else {
            let open = stack[stack.count - 1]
            throw MustacheSyntaxError(message: "'\(open.name)' is never closed; add {{/\(open.name)}}", position: open.position)
        }
        return stack[0].nodes
    }

    /// The line's only tag and its indentation, when the line is standalone.
    static func standaloneTag(of line: Line) -> (kind: TagKind, indentation: [UInt8])? {
        var tag: TagKind?
        var indentation: [UInt8] = []
        for token in line.tokens {
            switch token {
            case .text(let bytes):
                guard bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { return nil }
                if tag == nil { indentation += bytes }
            case .tag(let kind, _, _):
                guard tag == nil, kind.canStandAlone else { return nil }
                tag = kind
            }
        }
        return tag.map { ($0, indentation) }
    }

    static func add(_ kind: TagKind, _ name: String, _ position: SourcePosition, indentation: [UInt8], to stack: inout [Container]) throws(MustacheSyntaxError) {
        switch kind {
        case .variable, .unescaped:
            stack[stack.count - 1].nodes.append(.variable(MustacheName(name), escaped: kind == .variable, line: position.line))
        case .partial:
            stack[stack.count - 1].nodes.append(.partial(name, indentation: indentation, line: position.line))
        case .comment, .delimiters:
            break
        case .section, .inverted, .parent, .block:
            stack.append(Container(kind: kind, name: name, position: position, indentation: indentation))
        case .close:
            guard stack.count > 1 else {
                throw MustacheSyntaxError(message: "{{/\(name)}} closes nothing", position: position)
            }
            let container = stack.removeLast()
            guard container.name == name else {
                throw MustacheSyntaxError(message: "{{/\(name)}} closes '\(container.name)', opened at line \(container.position.line); close it with {{/\(container.name)}}", position: position)
            }
            let line = container.position.line
            let node: MustacheNode
            switch container.kind {
            case .parent:
                var overrides: [String: [MustacheNode]] = [:]
                for case .block(let blockName, let body, _) in container.nodes { overrides[blockName] = body }
                node = .parent(name, indentation: container.indentation, overrides: overrides, line: line)
            case .block:
                node = .block(name, body: container.nodes, line: line)
            default:
                node = .section(MustacheName(name), inverted: container.kind == .inverted, body: container.nodes, line: line)
            }
            stack[stack.count - 1].nodes.append(node)
        }
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
