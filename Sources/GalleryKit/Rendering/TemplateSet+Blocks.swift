extension TemplateSet {
    /// A block a template fills for its parent (`{{<base}}{{$content}}…{{/content}}{{/base}}`).
    struct BlockOverride {
        /// The template that fills it.
        var template: String
        /// The parent it is meant for.
        var parent: String
        /// The block's name.
        var block: String
        /// Where its opening tag is.
        var position: SourcePosition
    }

    /// The blocks rendering the template `name` has a place for, each with the template and
    /// position of its first `{{$block}}` tag: its own blocks at any depth, and those of the
    /// templates it includes or extends (overrides pass into partials and on to a parent's own
    /// parent). A block a child fills that is not among them is never shown.
    func blocks(definedBy name: String) -> [String: (template: String, position: SourcePosition)] {
        var found: [String: (template: String, position: SourcePosition)] = [:]
        var visited = Set<String>()
        collectBlocks(of: name, into: &found, visited: &visited)
        return found
    }

    private func collectBlocks(of name: String, into found: inout [String: (template: String, position: SourcePosition)], visited: inout Set<String>) {
        guard visited.insert(name).inserted, let template = compiled[name] else { return }
        collectBlocks(in: template.nodes, into: &found, visited: &visited)
    }

    private func collectBlocks(in nodes: [MustacheNode], into found: inout [String: (template: String, position: SourcePosition)], visited: inout Set<String>) {
        for node in nodes {
            switch node {
            case .text, .indent, .variable:
                break
            case .section(_, _, let body, _):
                collectBlocks(in: body, into: &found, visited: &visited)
            case .partial(let name, _, _):
                collectBlocks(of: name, into: &found, visited: &visited)
            case .parent(let name, _, let overrides, _):
                collectBlocks(of: name, into: &found, visited: &visited)
                // An override's content may hold blocks of its own, which a child can fill.
                for key in overrides.keys.sorted() {
                    collectBlocks(in: overrides[key]?.body ?? [], into: &found, visited: &visited)
                }
            case .block(let name, let content, _, _):
                if found[name] == nil { found[name] = (content.template, content.position) }
                collectBlocks(in: content.body, into: &found, visited: &visited)
            }
        }
    }

    /// The blocks `nodes` fill for their parents, at any depth.
    static func blockOverrides(in nodes: [MustacheNode]) -> [BlockOverride] {
        nodes.flatMap { node -> [BlockOverride] in
            switch node {
            case .text, .indent, .variable, .partial: []
            case .section(_, _, let body, _): blockOverrides(in: body)
            case .block(_, let content, _, _): blockOverrides(in: content.body)
            case .parent(let parent, _, let overrides, _):
                overrides.keys.sorted().flatMap { key -> [BlockOverride] in
                    guard let content = overrides[key] else { return [] }
                    return [BlockOverride(template: content.template, parent: parent, block: key, position: content.position)]
                        + blockOverrides(in: content.body)
                }
            }
        }
    }

    /// Warnings for blocks the pages' templates fill that their parent has no place for, so
    /// what they hold is shown nowhere (`{{$contnet}}` for `{{$content}}`).
    ///
    /// A site template's mistake is told where it fills the block. When the templates that fill
    /// it are built in, the site's parent template lost the block (`{{$inhalt}}` in place of
    /// `{{$content}}`): that is told once, at the parent, naming every built-in template affected.
    func blockFindings() -> [Diagnostic] {
        var findings: [Diagnostic] = []
        // Built-in templates that fill a block a site parent lacks, by parent and block.
        var lost: [String: [String: [String]]] = [:]
        for name in reachableTemplates.sorted() {
            guard let template = compiled[name] else { continue }
            for fill in Self.blockOverrides(in: template.nodes) where compiled[fill.parent] != nil {
                let defined = blocks(definedBy: fill.parent)
                guard defined[fill.block] == nil else { continue }
                switch sources[fill.template]?.origin {
                case .site(let path):
                    let hint = Spelling.nearest(fill.block, among: Set(defined.keys)).map { "; did you mean '\($0)'?" }
                        ?? (defined.isEmpty ? "; '\(fill.parent)' has no blocks" : "; '\(fill.parent)' has \(Self.quotedList(defined.keys.sorted()))")
                    findings.append(.warning(
                        "block '\(fill.block)' is not defined by its parent '\(fill.parent)', so what it holds is shown nowhere\(hint)",
                        path: path, at: fill.position
                    ))
                case .builtin?:
                    guard case .site = sources[fill.parent]?.origin else { continue }
                    lost[fill.parent, default: [:]][fill.block, default: []].append(fill.template)
                case nil:
                    continue
                }
            }
        }
        for parent in lost.keys.sorted() {
            guard case .site(let path) = sources[parent]?.origin, let fillers = lost[parent] else { continue }
            let defined = blocks(definedBy: parent)
            for block in fillers.keys.sorted() {
                let children = Set(fillers[block] ?? []).sorted()
                let who = children.count == 1 ? "the built-in template \(Self.quotedList(children)) fills" : "the built-in templates \(Self.quotedList(children)) fill"
                var message = "'\(parent)' has no block '\(block)', which \(who), so what \(children.count == 1 ? "it puts" : "they put") there is shown nowhere"
                var position: SourcePosition?
                // A block of the parent named like the lost one: misspelt when it was renamed.
                if let near = Spelling.nearest(block, among: Set(defined.keys)) {
                    message += "; if '\(near)' is that block, name it '\(block)'"
                    if let definition = defined[near], definition.template == parent { position = definition.position }
                } else {
                    message += "; add {{$\(block)}}{{/\(block)}} where it belongs, or give that name to the block meant for it"
                        + (defined.isEmpty ? "" : " ('\(parent)' has \(Self.quotedList(defined.keys.sorted())))")
                }
                findings.append(.warning(message, path: path, at: position))
            }
        }
        return findings
    }

    /// `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`.
    static func quotedList(_ names: [String]) -> String {
        list(names.map { "'\($0)'" })
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }
}
