/// One finding about a file, printed as `path:line:column: severity: message` like a compiler's.
///
/// A finding traced to a template leads with the template's file and line, where the mistake is
/// to be fixed; the page follows with the line and column as rendered, and for an error a note
/// that it was not written (a build with an error writes nothing, so the file in the output
/// folder still holds the last good build):
/// `templates/base.mustache:24: error: … (public/index.html:17:14 and 6 other pages, not written)`.
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
    /// How many other pages had the same finding from the same template line; they are reported
    /// as this one (see `DiagnosticDigest`).
    public var otherPages = 0
    /// For a duplicate (an id), where in the same file the first use is: the message ends with
    /// its line (`Findings.firstUseNote(line:)`), which `TemplateAttribution` replaces with the
    /// template that wrote it, so a template's line is never read as a page's.
    var firstUse: SourcePosition?

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

    /// A note: worth knowing, never a reason to fail (not even with `--strict`).
    public static func note(_ message: String, path: String, at position: SourcePosition? = nil) -> Self {
        Self(.note, path: path, position: position, message: message)
    }

    /// The finding as one line (`path:line:column: severity: message`), its text escaped for a
    /// terminal (see ``Swift/String/terminalLine()``).
    public var description: String { line.terminalLine() }

    private var line: String {
        var location = path
        if let position { location += ":\(position.line):\(position.column)" }
        guard let template else {
            let others = otherPages == 0 ? "" : " (and \(otherPages) more like it on other pages)"
            // A finding about the build as a whole (`--strict`) has no file to name.
            return location.isEmpty ? "\(severity.rawValue): \(message)\(others)" : "\(location): \(severity.rawValue): \(message)\(others)"
        }
        let others = otherPages == 0 ? "" : " and \(otherPages) other page\(otherPages == 1 ? "" : "s")"
        let unwritten = severity == .error ? ", not written" : ""
        return "\(template): \(severity.rawValue): \(message) (\(location)\(others)\(unwritten))"
    }
}

extension Sequence where Element == Diagnostic {
    /// Whether any finding is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }
}
