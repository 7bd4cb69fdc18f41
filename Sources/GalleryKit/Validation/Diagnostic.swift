/// One finding about a file, printed as `path:line:column: severity: message` like a compiler's.
///
/// Build steps collect diagnostics rather than stopping at the first, so one run reports every
/// problem; any error fails the command at the end.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a finding is.
    public enum Severity: String, Sendable, Hashable, Comparable, Codable {
        case note, warning, error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
    }

    /// How serious it is.
    public var severity: Severity
    /// The file it is about, as the user would type it (relative to the site folder when inside it).
    public var path: String
    /// Where in the file, when known.
    public var position: SourcePosition?
    /// What is wrong and, where possible, what to do.
    public var message: String
    /// The template file and line that wrote the faulty markup (`templates/partials/tile.mustache:1`),
    /// when the file is a rendered page.
    public var template: String?

    /// Creates a diagnostic.
    public init(_ severity: Severity, path: String, position: SourcePosition? = nil, message: String, template: String? = nil) {
        self.severity = severity
        self.path = path
        self.position = position
        self.message = message
        self.template = template
    }

    /// An error diagnostic.
    public static func error(_ message: String, path: String, at position: SourcePosition? = nil, template: String? = nil) -> Self {
        Self(.error, path: path, position: position, message: message, template: template)
    }

    /// A warning diagnostic.
    public static func warning(_ message: String, path: String, at position: SourcePosition? = nil, template: String? = nil) -> Self {
        Self(.warning, path: path, position: position, message: message, template: template)
    }

    public var description: String {
        var location = path
        if let position { location += ":\(position.line):\(position.column)" }
        // A finding about the build as a whole (`--strict`) has no file to name.
        var text = location.isEmpty ? "\(severity.rawValue): \(message)" : "\(location): \(severity.rawValue): \(message)"
        if let template { text += " (written by \(template))" }
        return text
    }
}

extension Sequence where Element == Diagnostic {
    /// Whether any finding is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }
}
