@testable import GalleryKit

/// SplitMix64: a tiny seeded random number generator, so every run builds the same corpus.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A context value that both engines can take: gallery's ``TemplateValue`` and swift-mustache's
/// `[String: Any]` dictionaries.
indirect enum Fixture: Sendable {
    case text(String), number(Int), bool(Bool), list([Fixture]), object([String: Fixture])

    var templateValue: TemplateValue {
        switch self {
        case .text(let text): .text(text)
        case .number(let number): .number(number)
        case .bool(let flag): .bool(flag)
        case .list(let items): .list(items.map(\.templateValue))
        case .object(let values): .object(TemplateDictionary(values.mapValues(\.templateValue)))
        }
    }

    var reference: Any {
        switch self {
        case .text(let text): text
        case .number(let number): number
        case .bool(let flag): flag
        case .list(let items): items.map(\.reference)
        case .object(let values): values.mapValues(\.reference)
        }
    }
}

/// Random templates from a grammar of text, interpolations, sections, inverted sections,
/// comments, partials and standalone lines, with a random context.
///
/// swift-mustache departs from the specification in a few corners, so the grammar leaves them
/// out (gallery follows the specification there; its own tests cover them):
/// - it writes the whitespace before an indented standalone partial even when the partial
///   renders nothing, so every generated partial starts with a line of text;
/// - it indents a partial's line only once something on it renders, so a last line without a
///   line break loses its indentation: generated partials end with a line break;
/// - it does not indent a partial's line after a `\r\n` line break: partials use `\n` only;
/// - in an indented partial, it indents the first line of a list section's first item only:
///   partials iterate no lists (sections over lists appear in `main` only);
/// - it indents the lines of an inline partial inside an indented partial, which the spec's
///   reference implementations (and gallery) do not: partials include no partials;
/// - after a section opened mid-line and closed on a standalone line, it no longer sees a
///   standalone tag on the next line: sections opened mid-line close on the same line;
/// - on a last line without a line break, it keeps the whitespace after a standalone tag and
///   drops the indentation before two comments: such a line ends in neither;
/// - it indents text that follows interpolated data ending in a line break, so generated data
///   has no line breaks;
/// - it treats a lone `\r` and Unicode line separators as line breaks: templates use `\n` and
///   `\r\n` only;
/// - it writes Swift's description of a list or dictionary for `{{name}}` and `{{.}}`, and an
///   inverted section over an empty list pushes the list: interpolations name only text,
///   numbers and flags, and `{{.}}` appears only where the top of the stack is text or a number;
/// - it escapes by `Character`, so `&`, `<`, `>`, `"` or `'` followed by a combining mark is
///   not escaped: generated data has no combining marks;
/// - inheritance is not generated: swift-mustache fails the specification's "Intrinsic
///   indentation" and "Nested block reindentation" cases (its own suite skips them). The
///   built-in templates' inheritance is compared page by page instead.
struct MustacheTemplateGenerator {
    var random: SeededGenerator
    /// Whether we are writing a partial: no `\r\n` line breaks, no sections over lists.
    private var inPartial = false

    private static let texts = ["a", "bc", " ", "  ", "\t", "<p>", "</p>", "&amp;", "'q'", "\"dq\"", "é", "😀", "x{y", "z}w", "a=b", "!", "#", ".", "-", "مرحبا"]
    private static let values = ["Ann", "<b>Bold</b>", "Tom & Jerry", "'single'", "\"double\"", "", " ", "😀👩‍👩‍👧", "عربي", "{{name}}", "a\tb"]
    private static let scalarNames = ["name", "html", "empty", "count", "flag", "off", "missing", "person.name", "person.nested.deep", "person.missing", "missing.name", "n"]
    /// Section names, with whether `{{.}}` inside is text or a number (`nil`: unchanged, as for
    /// flags, which are not pushed).
    private static let sectionNames: [(name: String, dotIsScalar: Bool?)] = [
        ("flag", nil), ("off", nil), ("missing", nil), ("items", false), ("none", false), ("words", true),
        ("person", false), ("person.nested", false), ("name", true), ("count", true), ("empty", true),
    ]

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// A template named `main`, two partials and a context.
    mutating func makeCase() -> (template: String, partials: [String: String], context: Fixture) {
        let partials = ["p1": partial(), "p2": partial()]
        var template = lines(depth: 0, dot: false, partials: true)
        if chance(30) {
            // The last line may end without a line break (nor trailing whitespace or comments).
            if template.last == "\n" || template.last == "\r\n" { template.removeLast() }
            while template.hasSuffix("{{!comment}}") { template.removeLast("{{!comment}}".count) }
            while template.last == " " || template.last == "\t" { template.removeLast() }
        }
        return (template, partials, context())
    }

    private mutating func partial() -> String {
        inPartial = true
        defer { inPartial = false }
        return pick(["P", "Q", "R"]) + pick(Self.texts) + "\n" + lines(depth: 1, dot: false, partials: false)
    }

    private mutating func context() -> Fixture {
        let items = (0..<Int.random(in: 0...3, using: &random)).map { index in
            Fixture.object(["name": .text(pick(Self.values)), "n": .number(index), "flag": .bool(chance(50))])
        }
        return .object([
            "name": .text(pick(Self.values)), "html": .text("<i>&'\"</i>"), "empty": .text(""),
            "count": .number(Int.random(in: -5...100, using: &random)), "flag": .bool(true), "off": .bool(false),
            "items": .list(items), "none": .list([]),
            "words": .list((1...Int.random(in: 1...3, using: &random)).map { _ in .text(pick(Self.values)) }),
            "person": .object(["name": .text(pick(Self.values)), "nested": .object(["deep": .text(pick(Self.values))])]),
        ])
    }

    private mutating func lines(depth: Int, dot: Bool, partials: Bool) -> String {
        var result = ""
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let roll = Int.random(in: 0..<100, using: &random)
            switch roll {
            case 0..<40:
                result += indentation() + inline(depth: depth, dot: dot, partials: partials) + lineBreak()
            case 40..<65 where depth < 3:
                let inverted = roll >= 57
                let (name, innerDot) = section(inverted: inverted, dot: dot)
                result += indentation() + "{{\(inverted ? "^" : "#")\(name)}}" + lineBreak()
                result += lines(depth: depth + 1, dot: innerDot, partials: partials)
                result += indentation() + "{{/\(name)}}" + lineBreak()
            case 65..<72:
                result += indentation() + "{{! a note }}" + indentation() + lineBreak()
            case 72..<85 where partials:
                result += indentation() + "{{>\(pick(["p1", "p2"]))}}" + lineBreak()
            case 85..<92:
                result += pick(["", " ", "\t "]) + lineBreak()
            default:
                result += indentation() + pick(Self.texts) + pick(Self.texts) + lineBreak()
            }
        }
        return result
    }

    private mutating func inline(depth: Int, dot: Bool, partials: Bool) -> String {
        var result = ""
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let roll = Int.random(in: 0..<100, using: &random)
            switch roll {
            case 0..<35:
                result += pick(Self.texts)
            case 35..<55:
                result += "{{" + padding() + pick(Self.scalarNames) + padding() + "}}"
            case 55..<60:
                result += "{{{" + pick(Self.scalarNames) + "}}}"
            case 60..<65:
                result += "{{&" + padding() + pick(Self.scalarNames) + "}}"
            case 65..<70 where dot:
                result += pick(["{{.}}", "{{{.}}}", "{{& . }}"])
            case 70..<85 where depth < 3:
                let inverted = roll >= 80
                let (name, innerDot) = section(inverted: inverted, dot: dot)
                result += "{{\(inverted ? "^" : "#")\(name)}}" + inline(depth: depth + 1, dot: innerDot, partials: partials) + "{{/\(name)}}"
            case 85..<90:
                result += "{{!comment}}"
            case 90..<95 where partials:
                result += "{{>" + padding() + pick(["p1", "p2"]) + "}}"
            default:
                result += pick(Self.texts)
            }
        }
        return result
    }

    private mutating func indentation() -> String { chance(40) ? pick([" ", "  ", "\t", "    "]) : "" }
    private mutating func padding() -> String { chance(20) ? " " : "" }
    private mutating func lineBreak() -> String { !inPartial && chance(15) ? "\r\n" : "\n" }
    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    /// A section name, with what `{{.}}` inside may be; an inverted section never pushes text or
    /// a number, and may push an empty list.
    private mutating func section(inverted: Bool, dot: Bool) -> (name: String, dot: Bool) {
        var (name, dotIsScalar) = pick(Self.sectionNames)
        while !inverted, inPartial, ["items", "words"].contains(name) {
            (name, dotIsScalar) = pick(Self.sectionNames)
        }
        return (name, inverted ? (dotIsScalar == nil ? dot : false) : (dotIsScalar ?? dot))
    }

    private mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &random)]
    }
}
