extension TemplateSet {
    /// A tag that includes or extends another template.
    private struct Edge {
        /// The template named.
        var target: String
        /// Where the tag is in the template that holds it.
        var position: SourcePosition
        /// Whether it extends the target (`{{<name}}`) rather than including it (`{{>name}}`).
        var extends: Bool

        /// The tag as written, give or take its spaces.
        var tag: String { "{{\(extends ? "<" : ">")\(target)}}" }
    }

    /// Errors for templates that include or extend themselves, directly or through others
    /// (`partials/footer` holding `{{>partials/footer}}`, `album` holding `{{<album}}`).
    ///
    /// Mustache allows a partial to include itself for data that nests (a tree), but a page's
    /// values do not nest: the same names answer at every depth, so such a page would hold the
    /// template inside itself without end, and the renderer would cut it off at its deepest
    /// nesting with no word. Each circle is told once, at the tag that starts it in the first of
    /// its templates that is the site's own (a built-in template cannot be changed), with the
    /// whole circle: `partials/a includes itself: partials/a → partials/b → partials/a`.
    static func cycleErrors(in compiled: [String: CompiledTemplate], sources: [String: Source]) -> [Diagnostic] {
        var edges: [String: [Edge]] = [:]
        for (name, template) in compiled {
            edges[name] = CompiledTemplate.referenceSites(in: template.nodes)
                .filter { compiled[$0.name] != nil }
                .map { Edge(target: $0.name, position: $0.position, extends: $0.extends) }
        }
        var diagnostics: [Diagnostic] = []
        for component in stronglyConnectedComponents(edges) {
            let members = Set(component)
            guard members.count > 1 || (edges[component[0]] ?? []).contains(where: { $0.target == component[0] }) else { continue }
            let start = component.sorted().first { if case .site = sources[$0]?.origin { true } else { false } } ?? component.sorted()[0]
            guard let circle = shortestCircle(from: start, within: members, edges: edges), let first = circle.first else { continue }
            let names = [start] + circle.map(\.target)
            let verb = circle.allSatisfy(\.extends) ? "extends" : "includes"
            let fix: String
            if circle.count == 1 {
                fix = first.extends
                    ? "a template cannot be its own parent: name another in {{<…}}\(start == "base" ? "" : ", such as {{<base}}")"
                    : "a page would hold it inside itself without end: remove \(first.tag)"
            } else {
                let last = circle[circle.count - 1]
                fix = "a page would hold it inside itself without end: remove \(first.tag) here, or \(last.tag) from \(names[names.count - 2])"
            }
            diagnostics.append(.error(
                "\(start) \(verb) itself: \(names.joined(separator: " → ")); \(fix)",
                path: sources[start]?.displayPath(name: start) ?? "templates/\(start).mustache",
                at: first.position
            ))
        }
        return diagnostics.sorted { ($0.path, $0.position ?? SourcePosition(line: 0, column: 0)) < ($1.path, $1.position ?? SourcePosition(line: 0, column: 0)) }
    }

    /// The shortest run of tags from `start` back to it through `members`, by breadth-first
    /// search (tags in the order a template holds them, so the answer is the same every time).
    private static func shortestCircle(from start: String, within members: Set<String>, edges: [String: [Edge]]) -> [Edge]? {
        var cameBy: [String: (from: String, edge: Edge)] = [:]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for edge in edges[node] ?? [] where members.contains(edge.target) {
                if edge.target == start {
                    var circle = [edge]
                    var at = node
                    while at != start, let step = cameBy[at] {
                        circle.insert(step.edge, at: 0)
                        at = step.from
                    }
                    return circle
                }
                guard cameBy[edge.target] == nil else { continue }
                cameBy[edge.target] = (node, edge)
                queue.append(edge.target)
            }
        }
        return nil
    }

    /// The strongly connected components of the reference graph (Tarjan's algorithm), each a
    /// set of templates that all reach one another; visited in name order, for a stable answer.
    private static func stronglyConnectedComponents(_ edges: [String: [Edge]]) -> [[String]] {
        var index: [String: Int] = [:]
        var lowest: [String: Int] = [:]
        var onStack = Set<String>()
        var stack: [String] = []
        var components: [[String]] = []
        func connect(_ node: String) {
            index[node] = index.count
            lowest[node] = index[node]
            stack.append(node)
            onStack.insert(node)
            for edge in edges[node] ?? [] {
                if index[edge.target] == nil {
                    connect(edge.target)
                    lowest[node] = min(lowest[node] ?? 0, lowest[edge.target] ?? 0)
                } else if onStack.contains(edge.target) {
                    lowest[node] = min(lowest[node] ?? 0, index[edge.target] ?? 0)
                }
            }
            guard lowest[node] == index[node] else { return }
            var component: [String] = []
            while let member = stack.popLast() {
                onStack.remove(member)
                component.append(member)
                if member == node { break }
            }
            components.append(component)
        }
        for node in edges.keys.sorted() where index[node] == nil { connect(node) }
        return components
    }
}
