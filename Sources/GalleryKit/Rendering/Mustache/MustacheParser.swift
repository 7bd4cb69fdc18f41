/// Turns template bytes into ``MustacheNode``s in four passes: the scanner splits lines into text
/// and tags; ``MustacheStructure`` pairs sections and checks nesting; standalone lines are
/// classified and block contents re-indented (``MustacheLayout``); then the tree is built.
enum MustacheParser {
    typealias Tag = MustacheScanner.Tag
    typealias Line = MustacheScanner.Line

    /// Parses a template named `template` (the name goes into block overrides, for tracing).
    static func parse(_ bytes: [UInt8], template: String) throws(MustacheSyntaxError) -> [MustacheNode] {
        let (scanned, scanError) = MustacheScanner.lines(of: bytes)
        let structure = try MustacheStructure(scanned, scanError: scanError)
        var layout = MustacheLayout(lines: scanned, structure: structure)
        layout.reindentBlocks()
        return Builder(template: template, layout: layout).build()
    }

    /// A section, parent or block being filled.
    private struct Container {
        var tag: Tag
        var nodes: [MustacheNode] = []
        /// For a parent or block tag on a line of its own: its indentation.
        var indentation: [UInt8]?
        /// For a parent tag: the blocks it overrides.
        var overrides: [String: MustacheBlock] = [:]
        /// For a block: whether it overrides a block of a parent, rather than defining one.
        var isOverride = false
        /// For a block: whether its content starts on the line after its opening tag.
        var startsLine = false
    }

    /// Builds the node tree from lines whose standalone status and indentation are settled.
    private struct Builder {
        let template: String
        let layout: MustacheLayout
        var stack: [Container]

        init(template: String, layout: MustacheLayout) {
            self.template = template
            self.layout = layout
            stack = [Container(tag: Tag(kind: .section, name: "", position: SourcePosition(line: 1, column: 1)))]
        }

        consuming func build() -> [MustacheNode] {
            var tagID = 0
            for (index, line) in layout.lines.enumerated() {
                let kind = layout.kinds[index]
                if kind == .kept, !(line.tokens.isEmpty && line.newline.isEmpty) {
                    append(.indent(line: line.number))
                }
                let standaloneIndentation = kind == .kept ? nil : Array(line.leadingWhitespace)
                for token in line.tokens {
                    switch token {
                    case .text(let bytes, let number):
                        if kind == .kept { append(.text(bytes, line: number)) }
                    case .tag(let tag):
                        add(tag, id: tagID, standaloneIndentation: standaloneIndentation)
                        tagID += 1
                    }
                }
                if kind != .standalone, !line.newline.isEmpty {
                    append(.text(line.newline, line: line.newlineLine))
                }
            }
            return stack.first?.nodes ?? []
        }

        /// Adds a node to the innermost container; text and tags directly inside a parent tag
        /// are ignored (only its blocks count).
        private mutating func append(_ node: MustacheNode) {
            guard stack[stack.count - 1].tag.kind != .parent else { return }
            stack[stack.count - 1].nodes.append(node)
        }

        private mutating func add(_ tag: Tag, id: Int, standaloneIndentation: [UInt8]?) {
            switch tag.kind {
            case .variable, .unescaped:
                append(.variable(MustacheName(tag.name), escaped: tag.kind == .variable, position: tag.position))
            case .partial:
                append(.partial(tag.name, indentation: standaloneIndentation, position: tag.position))
            case .comment, .delimiters:
                break
            case .section, .inverted:
                stack.append(Container(tag: tag))
            case .parent:
                stack.append(Container(tag: tag, indentation: standaloneIndentation))
            case .block:
                let isOverride = stack[stack.count - 1].tag.kind == .parent
                let indentation = standaloneIndentation == nil ? nil : layout.siteIndentation[id]
                stack.append(Container(tag: tag, indentation: indentation, isOverride: isOverride, startsLine: standaloneIndentation != nil))
            case .close:
                // MustacheStructure has checked that every close matches an open tag.
                guard stack.count > 1 else { return }
                let container = stack.removeLast()
                let opened = container.tag
                switch opened.kind {
                case .parent:
                    append(.parent(opened.name, indentation: container.indentation, overrides: container.overrides, position: opened.position))
                case .block:
                    let content = MustacheBlock(template: template, body: container.nodes, startsLine: container.startsLine, position: opened.position)
                    if container.isOverride {
                        stack[stack.count - 1].overrides[opened.name] = content
                    } else {
                        append(.block(opened.name, default: content, indentation: container.indentation, line: opened.position.line))
                    }
                default:
                    append(.section(MustacheName(opened.name), inverted: opened.kind == .inverted, body: container.nodes, position: opened.position))
                }
            }
        }
    }
}
