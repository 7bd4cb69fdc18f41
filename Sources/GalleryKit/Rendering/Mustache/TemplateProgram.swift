/// A template's nodes laid out flat for rendering, each operation's payload plain numbers into
/// storage the program owns.
///
/// Rendering the tree of ``MustacheNode``s copied each node it visited, and so retained and
/// released the node's text, name or body: in a cold build of 100,000 albums, whose pages render
/// tens of millions of nodes, that reference counting was the largest part of rendering. Text,
/// variables and sections here hold no reference, so visiting them costs none; a partial, parent
/// or block tag (a few in a template) is an ``inclusions`` node, rendered as before.
///
/// The storage is written once, in `init`, and freed with the program; the renderer reads it only
/// while it holds the ``CompiledTemplate`` or ``MustacheBlock`` that holds the program. Hence
/// `@unchecked Sendable`: nothing mutates it after `init`.
final class TemplateProgram: @unchecked Sendable {
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
        /// A partial, parent or block tag: ``inclusions`` number `index`.
        case inclusion(Int)
    }

    /// A name and the position of the tag that holds it.
    struct NameSite {
        var name: MustacheName
        var position: SourcePosition
        /// The name's one part, for a name without dots (`nil` for `album.title` and `.`): read
        /// without going through `name`'s array.
        var single: String?

        init(name: MustacheName, position: SourcePosition) {
            self.name = name
            self.position = position
            single = name.parts.count == 1 ? name.parts[0] : nil
        }
    }

    /// The operations, in template order.
    let operations: UnsafeMutableBufferPointer<Operation>
    /// Every text operation's bytes, one after another.
    let bytes: UnsafeMutableBufferPointer<UInt8>
    /// The names variables and sections look up, by number.
    let names: UnsafeMutableBufferPointer<NameSite>
    /// The partial, parent and block nodes, by number.
    let inclusions: [MustacheNode]

    /// Whether the template includes no partials, parents or blocks, so its output depends on
    /// the context alone.
    var isLeaf: Bool { inclusions.isEmpty }

    /// Lays `nodes` out flat.
    init(_ nodes: [MustacheNode]) {
        var operations: [Operation] = []
        var bytes: [UInt8] = []
        var names: [NameSite] = []
        var inclusions: [MustacheNode] = []
        func add(_ nodes: [MustacheNode]) {
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
                    add(body)
                    operations[start] = .section(name: name, inverted: inverted, end: operations.count)
                case .partial, .parent, .block:
                    inclusions.append(node)
                    operations.append(.inclusion(inclusions.count - 1))
                }
            }
        }
        add(nodes)
        self.operations = .allocate(capacity: operations.count)
        _ = self.operations.initialize(from: operations)
        self.bytes = .allocate(capacity: bytes.count)
        _ = self.bytes.initialize(from: bytes)
        self.names = .allocate(capacity: names.count)
        _ = self.names.initialize(from: names)
        self.inclusions = inclusions
    }

    deinit {
        operations.deallocate()
        bytes.deallocate()
        names.deinitialize().deallocate()
    }

    /// The range of every operation.
    var all: Range<Int> { 0..<operations.count }
}
