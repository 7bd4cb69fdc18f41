/// How sections, parents and blocks pair up: every tag gets an id in order of appearance, and
/// each opening tag's id is paired with its closing tag's.
struct MustacheStructure {
    typealias TagKind = MustacheScanner.TagKind

    /// Each tag's kind, by id.
    private(set) var kinds: [TagKind] = []
    /// The matching tag of an opening or closing tag, by id (`-1` for other tags).
    private(set) var partners: [Int] = []
    /// The index of the line each tag is on, by id.
    private(set) var lineIndices: [Int] = []
    /// The id of each line's first tag (the next tag's id when a line has none), by line index.
    private(set) var firstTagIDs: [Int] = []

    /// How deep sections, parents and blocks may nest: the walks over a template's tree
    /// recurse, and 20,000 levels overflowed the stack (5,000 took 17 s to build).
    static let deepest = 100

    /// Pairs the tags of scanned lines.
    ///
    /// - Throws: ``MustacheSyntaxError`` at the first problem: a close tag that closes nothing or
    ///   the wrong section, a tag other than a block inside a parent tag, nesting deeper than
    ///   ``deepest``, the scanner's error, or a section never closed.
    init(_ lines: [MustacheScanner.Line], scanError: MustacheSyntaxError?) throws(MustacheSyntaxError) {
        var tags: [MustacheScanner.Tag] = []
        var open: [Int] = []
        for (lineIndex, line) in lines.enumerated() {
            firstTagIDs.append(kinds.count)
            for case .tag(let tag) in line.tokens {
                let id = kinds.count
                kinds.append(tag.kind)
                partners.append(-1)
                lineIndices.append(lineIndex)
                tags.append(tag)
                if let top = open.last, tags[top].kind == .parent, ![.block, .close, .comment, .delimiters].contains(tag.kind) {
                    throw MustacheSyntaxError(message: "only blocks ({{$name}}…{{/name}}) and comments can go directly inside {{<\(tags[top].name)}}", position: tag.position)
                }
                switch tag.kind {
                case .section, .inverted, .parent, .block:
                    guard open.count < Self.deepest else {
                        throw MustacheSyntaxError(message: "sections, parents and blocks are nested more than \(Self.deepest) deep here; no page needs so many, so close some before opening more", position: tag.position)
                    }
                    open.append(id)
                case .close:
                    guard let top = open.popLast() else {
                        throw MustacheSyntaxError(message: "{{/\(tag.name)}} closes nothing; no section is open here", position: tag.position)
                    }
                    guard tags[top].name == tag.name else {
                        let opened = tags[top]
                        throw MustacheSyntaxError(message: "{{/\(tag.name)}} closes '\(opened.name)', opened at \(opened.position); close it with {{/\(opened.name)}}", position: tag.position)
                    }
                    partners[top] = id
                    partners[id] = top
                default:
                    break
                }
            }
        }
        if let scanError { throw scanError }
        if let top = open.last {
            throw MustacheSyntaxError(message: "'\(tags[top].name)' is never closed; add {{/\(tags[top].name)}}", position: tags[top].position)
        }
    }
}
