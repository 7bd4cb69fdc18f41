/// Names the template behind a faulty line of a rendered page.
///
/// Album text is always escaped, so broken markup comes from a template. To find which, each
/// template line's literal text (what lies outside its `{{tags}}`) is matched against the
/// faulty output line: the template whose line accounts for most of it is named, with its line.
struct TemplateAttribution: Sendable {
    /// A template line's literal pieces, in order.
    struct Pattern: Sendable {
        var template: String
        var line: Int
        var pieces: [String]
        var weight: Int
    }

    let templates: TemplateSet
    let patterns: [Pattern]

    /// Prepares the patterns of every template.
    init(templates: TemplateSet) {
        self.templates = templates
        var patterns: [Pattern] = []
        for (name, source) in templates.sources {
            for (offset, line) in source.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let pieces = Self.literalPieces(of: line).filter { !$0.isEmpty }
                let weight = pieces.reduce(0) { $0 + $1.count }
                if weight >= 2 { patterns.append(Pattern(template: name, line: offset + 1, pieces: pieces, weight: weight)) }
            }
        }
        self.patterns = patterns.sorted { ($0.template, $0.line) < ($1.template, $1.line) }
    }

    /// The diagnostic with the template named (and its path and line in the message), when one
    /// matches the faulty line of `page`.
    func attribute(_ diagnostic: Diagnostic, in page: [UInt8]) -> Diagnostic {
        guard let line = diagnostic.position?.line, let text = Self.line(line, of: page),
              let match = bestMatch(for: text), let source = templates.sources[match.template]
        else { return diagnostic }
        var attributed = diagnostic
        attributed.template = match.template
        attributed.message += " [from \(source.displayPath(name: match.template)):\(match.line)]"
        return attributed
    }

    /// The template line that explains most of an output line.
    func bestMatch(for text: String) -> Pattern? {
        let trimmed = text.trimmingSpaces()
        var best: Pattern?
        for pattern in patterns where pattern.weight > (best?.weight ?? 0) && Self.matches(pattern.pieces, in: trimmed) {
            best = pattern
        }
        return best
    }

    /// Whether every piece occurs in `text`, in order.
    static func matches(_ pieces: [String], in text: String) -> Bool {
        var rest = Substring(text)
        for piece in pieces {
            guard let range = rest.range(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }

    /// The text of a template line outside its Mustache tags, split at each tag.
    static func literalPieces(of line: Substring) -> [String] {
        var pieces: [String] = []
        var rest = line
        while let open = rest.range(of: "{{") {
            pieces.append(String(rest[..<open.lowerBound]).trimmingSpaces())
            guard let close = rest[open.upperBound...].range(of: "}}") else { return pieces }
            rest = rest[close.upperBound...]
            if rest.hasPrefix("}") { rest = rest.dropFirst() }
        }
        pieces.append(String(rest).trimmingSpaces())
        return pieces
    }

    /// Line `number` (from 1) of UTF-8 bytes.
    static func line(_ number: Int, of bytes: [UInt8]) -> String? {
        var current = 1
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            if current == number { return String(decoding: bytes[start..<index], as: UTF8.self) }
            current += 1
            start = index + 1
        }
        return current == number ? String(decoding: bytes[start...], as: UTF8.self) : nil
    }
}
