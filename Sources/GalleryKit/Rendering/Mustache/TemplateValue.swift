/// A value a template can show or iterate: gallery's Mustache contexts are typed values rather
/// than `Any`, so rendering needs no dynamic casts or reflection.
public enum TemplateValue: Sendable {
    /// Text, HTML-escaped by `{{name}}` and written as it is by `{{{name}}}`.
    case text(String)
    /// A whole number.
    case number(Int)
    /// A flag: a section renders when it is true, an inverted section when it is false.
    case bool(Bool)
    /// Items a section renders once each.
    case list([TemplateValue])
    /// Named values, looked up by `{{name}}` and `{{name.child}}`.
    case object(any TemplateObject)
    /// Nothing: falsey, renders as empty.
    case null

    /// Whether a section skips this value (and an inverted section renders): false, null and
    /// empty lists, as in the Mustache specification.
    var isFalsey: Bool {
        switch self {
        case .bool(let flag): !flag
        case .null: true
        case .list(let items): items.isEmpty
        case .text, .number, .object: false
        }
    }
}

/// A value with named children, such as a page's context or a tile.
public protocol TemplateObject: Sendable {
    /// The child named `key`, or `nil` when this object has no such key (lookup then continues
    /// down the context stack, as Mustache requires).
    func value(forKey key: String) -> TemplateValue?
}

extension TemplateValue {
    /// Text, or null when absent.
    static func text(_ value: String?) -> TemplateValue {
        value.map { .text($0) } ?? .null
    }
}

/// Named values held in a dictionary, for contexts built ad hoc (tests, small pages).
public struct TemplateDictionary: TemplateObject {
    /// The values.
    public var values: [String: TemplateValue]

    /// Creates a dictionary context.
    public init(_ values: [String: TemplateValue]) {
        self.values = values
    }

    public func value(forKey key: String) -> TemplateValue? { values[key] }
}
