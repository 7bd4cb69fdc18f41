extension TemplateSet {
    /// Whether a tile may show its album's own fields: some template names `params` as a name of
    /// its own (a tile template's `{{params.price}}`, a section's `{{#params}}`), not through
    /// `album.` or `site.`. Then a page's key holds the params of every album in its strip, so
    /// a new price for one album rewrites the pages whose strip shows it. (A name inside
    /// `{{#album}}…{{/album}}` counts too: a key that holds more than it needs costs a render
    /// of pages whose bytes do not change, never a stale page.)
    var tilesMayShowParams: Bool {
        compiled.values.contains { Self.namesParams(in: $0.nodes) }
    }

    private static func namesParams(in nodes: [MustacheNode]) -> Bool {
        nodes.contains { node in
            switch node {
            case .text, .indent, .partial: false
            case .variable(let name, _, _): name.parts.first == "params"
            case .section(let name, _, let body, _): name.parts.first == "params" || namesParams(in: body)
            case .parent(_, _, let overrides, _): overrides.values.contains { namesParams(in: $0.body) }
            case .block(_, let content, _, _): namesParams(in: content.body)
            }
        }
    }
}
