/// A parsed Mustache template: gallery's own engine, compiled once and rendered into bytes with
/// typed ``TemplateValue`` contexts.
///
/// It follows the Mustache specification (interpolation, sections, inverted sections, comments,
/// partials with standalone indentation, set delimiters, and inheritance with parents and
/// blocks), escaping HTML as swift-mustache does (`& < > " '`). Lambdas are not supported.
///
/// A class, immutable: the renderer looks a partial up at every inclusion (a strip includes its
/// tile partial once a tile), and taking a reference out of the table is one count where a copy
/// of a structure counted each of its fields.
public final class CompiledTemplate: Sendable {
    /// The name partials use for it.
    public let name: String
    /// The parsed nodes.
    let nodes: [MustacheNode]
    /// Whether the template includes no partials, parents or blocks, so its output depends on
    /// the context alone: what makes it eligible for the renderer's fragment cache.
    var isLeaf: Bool { program.isLeaf }
    /// The nodes laid out flat for rendering.
    let program: TemplateProgram

    /// Parses a template; every template starts with the default delimiters `{{ }}`.
    ///
    /// - Throws: ``MustacheSyntaxError`` with the line and column of the first problem.
    public init(name: String, text: String) throws(MustacheSyntaxError) {
        self.name = name
        self.nodes = try MustacheParser.parse(Array(text.utf8), template: name)
        self.program = TemplateProgram(nodes)
    }

    /// The names of the templates `nodes` include (`{{>name}}`) or extend (`{{<name}}`), at any depth.
    static func references(in nodes: [MustacheNode]) -> [String] {
        referenceSites(in: nodes).map(\.name)
    }

    /// The templates `nodes` include or extend, each with the position of its tag and whether
    /// it is extended (`{{<name}}`) rather than included, at any depth.
    static func referenceSites(in nodes: [MustacheNode]) -> [(name: String, position: SourcePosition, extends: Bool)] {
        nodes.flatMap { node -> [(name: String, position: SourcePosition, extends: Bool)] in
            switch node {
            case .text, .indent, .variable: []
            case .section(_, _, let body, _): referenceSites(in: body)
            case .partial(let name, _, let position): [(name, position, false)]
            case .parent(let name, _, let overrides, let position):
                [(name, position, true)] + overrides.keys.sorted().flatMap { referenceSites(in: overrides[$0]?.body ?? []) }
            case .block(_, let content, _, _): referenceSites(in: content.body)
            }
        }
    }
}

/// A dotted name (`album.title`), or the implicit iterator `.` when `parts` is empty.
struct MustacheName: Sendable, Hashable, CustomStringConvertible {
    /// The name's parts between dots; the first is looked up down the context stack.
    let parts: [String]

    /// Splits a tag's name at its dots.
    init(_ text: String) {
        parts = text == "." ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    var description: String { parts.isEmpty ? "." : parts.joined(separator: ".") }
}

/// A block's content: its default (`{{$name}}…{{/name}}`) or an override given by a parent tag
/// (`{{<parent}}{{$name}}…{{/name}}{{/parent}}`), with the template it was written in, so
/// tracing names that template and not the parent's.
struct MustacheBlock: Sendable {
    /// The template the content was written in.
    let template: String
    /// The content's nodes.
    let body: [MustacheNode]
    /// Whether the content starts at the beginning of a template line (the block's opening tag
    /// stood alone on its line) rather than right after the opening tag.
    let startsLine: Bool
    /// Where the block's opening tag is in `template`, for naming it in a warning.
    let position: SourcePosition
    /// The content laid out flat for rendering.
    let program: TemplateProgram

    init(template: String, body: [MustacheNode], startsLine: Bool, position: SourcePosition) {
        self.template = template
        self.body = body
        self.startsLine = startsLine
        self.position = position
        program = TemplateProgram(body)
    }
}

/// One piece of a parsed template. `line` is the template line a piece starts on, for tracing
/// output back to templates; a tag's `position` is where its opening delimiter is, so a
/// warning about a name can point at the very tag that holds it (a line may hold the same name
/// twice).
///
/// `indentation` is `nil` for a partial, parent or block tag that shares its line with other
/// content (its output goes inline), and the whitespace to put before each line of its output
/// when the tag stands alone on its line.
enum MustacheNode: Sendable {
    /// Literal text (never spans a line break except at its end).
    case text([UInt8], line: Int)
    /// The start of a template line: where the indentation of an enclosing standalone partial,
    /// parent or block is written.
    case indent(line: Int)
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}`.
    case variable(MustacheName, escaped: Bool, position: SourcePosition)
    /// `{{#name}}…{{/name}}` or, inverted, `{{^name}}…{{/name}}`; `position` is the opening tag's.
    case section(MustacheName, inverted: Bool, body: [MustacheNode], position: SourcePosition)
    /// `{{>name}}`.
    case partial(String, indentation: [UInt8]?, position: SourcePosition)
    /// `{{<name}}…{{/name}}`: render `name` with these block overrides; `position` is the
    /// opening tag's.
    case parent(String, indentation: [UInt8]?, overrides: [String: MustacheBlock], position: SourcePosition)
    /// `{{$name}}…{{/name}}` outside a parent tag: an overridable block with its default content.
    case block(String, default: MustacheBlock, indentation: [UInt8]?, line: Int)
}

/// Why a template does not parse, and where.
public struct MustacheSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// Where, 1-based; columns count Unicode scalars.
    public var position: SourcePosition

    public var description: String { "\(position): \(message)" }
}
