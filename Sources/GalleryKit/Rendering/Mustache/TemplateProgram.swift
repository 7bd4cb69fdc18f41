/// A leaf template (text, variables and sections; no partials, parents or blocks) laid out flat
/// for rendering, each operation's payload plain numbers into storage the program owns.
///
/// Rendering the tree of ``MustacheNode``s copies each node it visits, and so retains and
/// releases the node's text, name or body: for a tile, rendered some 460,000 times in a cold
/// build of 100,000 albums, that reference counting was most of the tile's cost. An operation
/// here holds no reference, so visiting it costs none.
///
/// The storage is written once, in `init`, and freed with the program; the renderer reads it only
/// while it holds the ``CompiledTemplate`` that holds the program. Hence `@unchecked Sendable`:
/// nothing mutates it after `init`.
final class LeafProgram: @unchecked Sendable {
    /// One step of the program.
    enum Operation {
        /// `count` bytes of ``bytes`` from `start`, written by the template's line `line`.
        case text(start: Int, count: Int, line: Int)
        /// The start of a template line, where an enclosing partial's indentation goes.
        case indent(line: Int)
        /// `{{name}}`: ``names`` number `name`.
        case variable(name: Int, escaped: Bool)
        /// `{{#name}}` or `{{^name}}`: its body is the operations after this one, up to `end`.
        case section(name: Int, inverted: Bool, end: Int)
    }

    /// A name and the position of the tag that holds it.
    struct NameSite {
        var name: MustacheName
        var position: SourcePosition
    }

    /// The operations, in template order.
    let operations: UnsafeMutableBufferPointer<Operation>
    /// Every text operation's bytes, one after another.
    let bytes: UnsafeMutableBufferPointer<UInt8>
    /// The names variables and sections look up, by number.
    let names: UnsafeMutableBufferPointer<NameSite>

    /// Lays `nodes` out flat, or returns `nil` when they include a partial, parent or block.
    init?(_ nodes: [MustacheNode]) {
        var operations: [Operation] = []
        var bytes: [UInt8] = []
        var names: [NameSite] = []
        func add(_ nodes: [MustacheNode]) -> Bool {
            for node in nodes {
                switch node {
                case .text(let text, let line):
                    operations.append(.text(start: bytes.count, count: text.count, line: line))
                    bytes.append(contentsOf: text)
                case .indent(let line):
                    operations.append(.indent(line: line))
                case .variable(let name, let escaped, let position):
                    names.append(NameSite(name: name, position: position))
                    operations.append(.variable(name: names.count - 1, escaped: escaped))
                case .section(let name, let inverted, let body, let position):
                    names.append(NameSite(name: name, position: position))
                    let name = names.count - 1
                    let start = operations.count
                    operations.append(.indent(line: 0))
                    guard add(body) else { return false }
                    operations[start] = .section(name: name, inverted: inverted, end: operations.count)
                case .partial, .parent, .block:
                    return false
                }
            }
            return true
        }
        guard add(nodes) else { return nil }
        self.operations = .allocate(capacity: operations.count)
        _ = self.operations.initialize(from: operations)
        self.bytes = .allocate(capacity: bytes.count)
        _ = self.bytes.initialize(from: bytes)
        self.names = .allocate(capacity: names.count)
        _ = self.names.initialize(from: names)
    }

    deinit {
        operations.deallocate()
        bytes.deallocate()
        names.deinitialize().deallocate()
    }
}

extension MustacheRenderer {
    /// Renders the operations of `program` in `range`, of the template `template`, as
    /// ``render(_:in:indentation:overrides:depth:)`` renders the nodes they were made from.
    mutating func render(_ program: LeafProgram, _ range: Range<Int>, in template: String, indentation: [UInt8]) {
        // The object on top of the stack, taken out once for the names below: nearly all are its
        // own (a tile's), and taking it out of the stack for each name copied it for each.
        let top: (any TemplateObject)? = if case .object(let object)? = stack.last { object } else { nil }
        var index = range.lowerBound
        while index < range.upperBound {
            switch program.operations[index] {
            case .text(let start, let count, let line):
                if trace != nil { record(template, line) }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: program.bytes[start..<(start + count)]))
            case .indent(let line):
                if !indentation.isEmpty {
                    if trace != nil { record(template, line) }
                    output.append(contentsOf: indentation)
                }
            case .variable(let name, let escaped):
                let site = program.names.baseAddress! + name
                if trace != nil { record(template, site.pointee.position.line) }
                write(lookUp(site, below: top, in: template), escaped: escaped)
            case .section(let name, let inverted, let end):
                let site = program.names.baseAddress! + name
                let value = lookUp(site, below: top, in: template)
                let body = (index + 1)..<end
                index = end
                if inverted {
                    if value.isFalsey { render(program, body, in: template, indentation: indentation) }
                    continue
                }
                switch value {
                case .list(let items):
                    for item in items {
                        stack.append(item)
                        render(program, body, in: template, indentation: indentation)
                        stack.removeLast()
                    }
                case .bool(true):
                    render(program, body, in: template, indentation: indentation)
                case .bool(false), .null:
                    break
                case .text, .markup, .number, .object:
                    stack.append(value)
                    render(program, body, in: template, indentation: indentation)
                    stack.removeLast()
                }
                continue
            }
            index += 1
        }
    }

    /// ``resolve(_:in:at:)``, asking `top` (the object on top of the stack) first for a name of
    /// one part, as the lookup down the stack would, unless unknown names are being recorded.
    private mutating func lookUp(_ site: UnsafeMutablePointer<LeafProgram.NameSite>, below top: (any TemplateObject)?, in template: String) -> TemplateValue {
        if let top, unknownNames == nil, site.pointee.name.parts.count == 1, let value = top.value(forKey: site.pointee.name.parts[0]) {
            noteLevelUsed(stack.count - 1)
            return value
        }
        return resolve(site.pointee.name, in: template, at: site.pointee.position)
    }
}
