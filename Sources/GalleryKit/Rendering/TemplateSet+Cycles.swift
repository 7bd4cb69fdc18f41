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

    /// Errors for templates that include or extend one another without end
    /// (``cycleErrors(_:sources:)``) or, when none does, bring too many copies of templates
    /// into a page (``inclusionErrors(_:sources:)``), from one walk over the templates' tags.
    static func referenceErrors(in compiled: [String: CompiledTemplate], sources: [String: Source]) -> [Diagnostic] {
        var edges: [String: [Edge]] = [:]
        for (name, template) in compiled {
            edges[name] = CompiledTemplate.referenceSites(in: template.nodes)
                .filter { compiled[$0.name] != nil }
                .map { Edge(target: $0.name, position: $0.position, extends: $0.extends) }
        }
        let cycles = cycleErrors(edges, sources: sources)
        return cycles.isEmpty ? inclusionErrors(edges, sources: sources) : cycles
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
    private static func cycleErrors(_ edges: [String: [Edge]], sources: [String: Source]) -> [Diagnostic] {
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

    /// The most copies of templates one template may bring into a page, counting each tag that
    /// includes or extends one, and the tags in those in turn (a section's repeats not counted).
    static let mostInclusions = 10_000

    /// Errors for templates that bring in more than ``mostInclusions`` copies of templates:
    /// partials that each include the next ten times ("billion laughs") made 53 MB pages at six
    /// levels and had not finished one in 30 s at eight. Each is told at the template where
    /// the count first passes the limit, naming its first tag. Call it on templates with no
    /// circle (``cycleErrors(_:sources:)``).
    private static func inclusionErrors(_ references: [String: [Edge]], sources: [String: Source]) -> [Diagnostic] {
        // Copies each template brings in, itself included, capped past the limit.
        var copies: [String: Int] = [:]
        func count(_ name: String) -> Int {
            if let known = copies[name] { return known }
            var total = 1
            for reference in references[name] ?? [] where total <= mostInclusions {
                total += count(reference.target)
            }
            copies[name] = min(total, mostInclusions + 1)
            return copies[name]!
        }
        var diagnostics: [Diagnostic] = []
        for name in references.keys.sorted() where count(name) > mostInclusions {
            // Where the count passes the limit: none of the templates this one names does.
            guard let first = references[name]?.first, (references[name] ?? []).allSatisfy({ count($0.target) <= mostInclusions }) else { continue }
            diagnostics.append(.error(
                "\(name) brings more than \(mostInclusions) copies of templates into a page (its tags, and the tags in what they name in turn): no page needs so many, and each would be made and checked; include each partial fewer times",
                path: sources[name]?.displayPath(name: name) ?? "templates/\(name).mustache",
                at: first.position
            ))
        }
        return diagnostics
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
