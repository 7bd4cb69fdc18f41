/// A parsed Mustache template: gallery's own engine, compiled once and rendered into bytes with
/// typed ``TemplateValue`` contexts.
///
/// It follows the Mustache specification (interpolation, sections, inverted sections, comments,
/// partials with standalone indentation, set delimiters, and inheritance with parents and
/// blocks), escaping HTML as swift-mustache does (`& < > " '`). Lambdas are not supported.
public struct CompiledTemplate: Sendable {
    /// The name partials use for it.
    public let name: String
    /// The parsed nodes.
    let nodes: [MustacheNode]

    /// Parses a template.
    ///
    /// - Throws: ``MustacheSyntaxError`` with the line and column of the first problem.
    public init(name: String, text: String) throws(MustacheSyntaxError) {
        self.name = name
        self.nodes = try MustacheParser.parse(Array(text.utf8))
    }
}

/// A dotted name (`album.title`), or the implicit iterator `.` when `parts` is empty.
struct MustacheName: Sendable, Hashable, CustomStringConvertible {
    let parts: [String]

    init(_ text: String) {
        parts = text == "." ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    var description: String { parts.isEmpty ? "." : parts.joined(separator: ".") }
}

/// One piece of a parsed template. `line` is the template line a piece starts on, for tracing
/// output back to templates.
indirect enum MustacheNode: Sendable {
    /// Literal text (never spans a line break except at its end).
    case text([UInt8], line: Int)
    /// The start of a template line: where a standalone partial's indentation is written.
    case indent
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}`.
    case variable(MustacheName, escaped: Bool, line: Int)
    /// `{{#name}}…{{/name}}` or, inverted, `{{^name}}…{{/name}}`.
    case section(MustacheName, inverted: Bool, body: [MustacheNode], line: Int)
    /// `{{>name}}`, with the indentation of a standalone tag.
    case partial(String, indentation: [UInt8], line: Int)
    /// `{{<name}}…{{/name}}`: render `name` with these block overrides.
    case parent(String, indentation: [UInt8], overrides: [String: [MustacheNode]], line: Int)
    /// `{{$name}}…{{/name}}`: an overridable block with its default content.
    case block(String, body: [MustacheNode], line: Int)
}

/// Why a template does not parse, and where.
public struct MustacheSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// Where, 1-based.
    public var position: SourcePosition

    public var description: String { "\(position): \(message)" }
}
