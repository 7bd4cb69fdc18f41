/// Renders compiled templates with a context into UTF-8 bytes.
///
/// Names resolve down the context stack as the specification says; partials and parents are
/// looked up in the template set; block overrides pass into partials, the outermost winning.
struct MustacheRenderer {
    /// Where a run of output bytes came from: for naming the template behind a faulty line.
    struct TraceEntry: Sendable, Hashable {
        /// The output offset where the run starts.
        var offset: Int
        /// The template.
        var template: String
        /// Its line.
        var line: Int
    }

    /// A block override in force: its content and the template that defined it (for tracing).
    struct Override {
        var nodes: [MustacheNode]
        var template: String
    }

    /// The deepest nesting of partials and parents, so a template that includes itself stops.
    static let maximumDepth = 64

    let templates: [String: CompiledTemplate]
    var output: [UInt8] = []
    var stack: [TemplateValue] = []
    /// When not `nil`, every emitted piece is recorded.
    var trace: [TraceEntry]?

    init(templates: [String: CompiledTemplate], capacity: Int = 16_384, tracing: Bool = false) {
        self.templates = templates
        output.reserveCapacity(capacity)
        trace = tracing ? [] : nil
    }

    /// Renders the template `name` with `context` as the bottom of the stack.
    mutating func render(_ name: String, context: TemplateValue) {
        guard let template = templates[name] else { return }
        stack = [context]
        render(template.nodes, in: name, indentation: [], overrides: [:], depth: 0)
    }

    private mutating func render(_ nodes: [MustacheNode], in template: String, indentation: [UInt8], overrides: [String: Override], depth: Int) {
        for node in nodes {
            switch node {
            case .text(let bytes, let line):
                record(template, line)
                output.append(contentsOf: bytes)
            case .indent:
                if !indentation.isEmpty { output.append(contentsOf: indentation) }
            case .variable(let name, let escaped, let line):
                record(template, line)
                write(resolve(name), escaped: escaped)
            case .section(let name, let inverted, let body, _):
                let value = resolve(name)
                if inverted {
                    if value.isFalsey { render(body, in: template, indentation: indentation, overrides: overrides, depth: depth) }
                    continue
                }
                switch value {
                case .list(let items):
                    for item in items {
                        stack.append(item)
                        render(body, in: template, indentation: indentation, overrides: overrides, depth: depth)
                        stack.removeLast()
                    }
                case .bool(true):
                    render(body, in: template, indentation: indentation, overrides: overrides, depth: depth)
                case .bool(false), .null:
                    break
                case .text, .number, .object:
                    stack.append(value)
                    render(body, in: template, indentation: indentation, overrides: overrides, depth: depth)
                    stack.removeLast()
                }
            case .partial(let name, let extra, _):
                guard depth < Self.maximumDepth, let partial = templates[name] else { continue }
                render(partial.nodes, in: name, indentation: indentation + extra, overrides: overrides, depth: depth + 1)
            case .parent(let name, let extra, let ownOverrides, _):
                guard depth < Self.maximumDepth, let parent = templates[name] else { continue }
                // Overrides already in force (from further out) win over this parent tag's own.
                let own = ownOverrides.mapValues { Override(nodes: $0, template: template) }
                let merged = overrides.merging(own) { outer, _ in outer }
                render(parent.nodes, in: name, indentation: indentation + extra, overrides: merged, depth: depth + 1)
            case .block(let name, let body, _):
                if let override = overrides[name] {
                    render(override.nodes, in: override.template, indentation: indentation, overrides: overrides, depth: depth)
                } else {
                    render(body, in: template, indentation: indentation, overrides: overrides, depth: depth)
                }
            }
        }
    }

    private mutating func record(_ template: String, _ line: Int) {
        guard trace != nil else { return }
        if let last = trace?.last, last.template == template, last.line == line { return }
        trace?.append(TraceEntry(offset: output.count, template: template, line: line))
    }

    /// Looks a name up: the first part down the stack, the rest inside what was found.
    private func resolve(_ name: MustacheName) -> TemplateValue {
        guard let first = name.parts.first else { return stack.last ?? .null }
        var found: TemplateValue?
        var level = stack.count - 1
        while level >= 0 {
            if case .object(let object) = stack[level], let child = object.value(forKey: first) {
                found = child
                break
            }
            level -= 1
        }
        guard var value = found else { return .null }
        for part in name.parts.dropFirst() {
            guard case .object(let object) = value, let child = object.value(forKey: part) else { return .null }
            value = child
        }
        return value
    }

    private mutating func write(_ value: TemplateValue, escaped: Bool) {
        switch value {
        case .text(let text):
            if escaped {
                Self.appendEscaped(text, to: &output)
            } else {
                var text = text
                text.withUTF8 { output.append(contentsOf: $0) }
            }
        case .number(let number):
            output.append(contentsOf: String(number).utf8)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null, .list, .object:
            break
        }
    }

    /// Appends text with `& < > " '` escaped for HTML and XML, as swift-mustache escapes them.
    static func appendEscaped(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let replacement: StaticString
                switch bytes[index] {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                default: continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                replacement.withUTF8Buffer { output.append(contentsOf: $0) }
                runStart = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
    }
}
