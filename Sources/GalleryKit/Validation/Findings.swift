/// The diagnostics about one file, gathered while it is validated and positioned at the end.
///
/// libxml2's parse errors arrive with a line and column. Findings about elements are recorded
/// with the element and its place in a pre-order walk (its ordinal); only when there is at least
/// one does `diagnostics(source:document:)` scan the source for tag starts to turn ordinals into
/// exact lines and columns. A valid page therefore costs no position work at all.
struct Findings {
    /// An element and its 0-based position in a pre-order walk of the tree (the root is 0).
    struct Located {
        /// The element.
        var element: XMLDocument.Element
        /// Its pre-order ordinal, or `nil` when not yet known (schema issues name only the node).
        var ordinal: Int?
    }

    private struct Pending {
        var severity: Diagnostic.Severity
        var location: Located
        var message: String
        var firstUse: Located?
        /// For the content of a `script` or `style` (its name), to be looked through for
        /// references once the source is at hand (see `RawTextEntities`); the message is made then.
        var rawText: String?
    }

    /// The file, as diagnostics name it.
    let path: String
    private var positioned: [Diagnostic] = []
    private var pending: [Pending] = []

    /// Starts an empty set of findings about `path`.
    init(path: String) {
        self.path = path
    }

    /// Whether any error has been recorded.
    var containsErrors: Bool {
        positioned.containsErrors || pending.contains { $0.severity == .error }
    }

    /// Records libxml2's issues; those naming a node are placed on that node's element.
    mutating func record(_ issues: [XMLDocument.Issue], in document: XMLDocument? = nil) {
        for issue in issues {
            if let node = issue.node, let element = document?.element(containing: node) {
                pending.append(Pending(severity: issue.severity, location: Located(element: element), message: issue.message))
                continue
            }
            let position = issue.line > 0 ? SourcePosition(line: issue.line, column: max(issue.column, 1)) : nil
            positioned.append(Diagnostic(issue.severity, path: path, position: position, message: issue.message))
        }
    }

    /// Records a problem with an element; with `firstUse`, the message ends by naming that
    /// element's line (for duplicates).
    mutating func error(_ message: String, at location: Located, firstUse: Located? = nil) {
        pending.append(Pending(severity: .error, location: location, message: message, firstUse: firstUse))
    }

    /// Records a `script` or `style` element of the XHTML namespace, whose content is looked
    /// through for references when the findings are positioned: a warning at the first, if any.
    mutating func rawTextContent(of name: String, at location: Located) {
        pending.append(Pending(severity: .warning, location: location, message: "", rawText: name))
    }

    /// Records a problem with the file as a whole.
    mutating func error(_ message: String) {
        positioned.append(.error(message, path: path))
    }

    /// Every finding in source order (file-wide ones first), each element finding at the exact
    /// line and column of its start tag.
    func diagnostics(source: [UInt8], document: XMLDocument?) -> [Diagnostic] {
        guard !pending.isEmpty else { return positioned.sorted(by: Self.inSourceOrder) }
        let tags = TagStartIndex(source: source)
        var ordinals: [UnsafeMutableRawPointer: Int] = [:]
        var elementCount = 0
        let needsOrdinals = pending.contains { $0.location.ordinal == nil }
        if let root = document?.root {
            Self.preorder(root) { element in
                if needsOrdinals { ordinals[element.identity] = elementCount }
                elementCount += 1
            }
        }
        // One start tag per element, or the source is not what the tree was built from (an
        // entity that expanded into elements, say): then no ordinal can be trusted.
        let aligned = tags.tags.count == elementCount
        var result = positioned
        for finding in pending {
            let here = position(of: finding.location, tags: tags, aligned: aligned, ordinals: ordinals, document: document)
            if let element = finding.rawText {
                let warning: Diagnostic? = source.withUnsafeBufferPointer { bytes in
                    guard let offset = TemplateAttribution.byteOffset(of: here, in: source), offset < bytes.count, bytes[offset] == UInt8(ascii: "<") else { return nil }
                    let offsets = RawTextEntities.references(in: bytes, elementAt: offset)
                    guard let first = offsets.first else { return nil }
                    let message = RawTextEntities.message(element: element, offsets: offsets, in: bytes)
                    return Diagnostic(finding.severity, path: path, position: TemplateAttribution.position(ofByte: first, in: bytes), message: message)
                }
                if let warning { result.append(warning) }
                continue
            }
            var diagnostic = Diagnostic(finding.severity, path: path, position: here, message: finding.message)
            if let firstUse = finding.firstUse {
                let there = position(of: firstUse, tags: tags, aligned: aligned, ordinals: ordinals, document: document)
                diagnostic.message += Self.firstUseNote(line: there.line)
                diagnostic.firstUse = there
            }
            result.append(diagnostic)
        }
        return result.sorted(by: Self.inSourceOrder)
    }

    /// What a duplicate's message ends with: where in the same file the first use is.
    static func firstUseNote(line: Int) -> String {
        " (first used on line \(line))"
    }

    /// Orders by position, file-wide findings first; the sort is stable, so findings at one
    /// position keep the order in which they were found.
    private static func inSourceOrder(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
        switch (lhs.position, rhs.position) {
        case (nil, .some): true
        case let (left?, right?): left < right
        default: false
        }
    }

    /// Visits `element` and its descendants in document order, as every ordinal is counted.
    static func preorder(_ element: XMLDocument.Element, _ visit: (XMLDocument.Element) -> Void) {
        visit(element)
        for child in element.children { preorder(child, visit) }
    }

    private func position(
        of location: Located, tags: TagStartIndex, aligned: Bool, ordinals: [UnsafeMutableRawPointer: Int], document: XMLDocument?
    ) -> SourcePosition {
        let name = location.element.qualifiedName
        let line = location.element.line
        if aligned, let ordinal = location.ordinal ?? ordinals[location.element.identity],
           ordinal < tags.tags.count, tags.tags[ordinal].name == name, tags.tags[ordinal].endLine == line {
            return tags.tags[ordinal].position
        }
        // Fall back to libxml2's line (where the start tag ends): the k-th element named N whose
        // tag ends on line L is the k-th `<N` tag ending on that line.
        var rank = 0
        if let root = document?.root {
            var found = false
            Self.preorder(root) { element in
                guard !found else { return }
                if element.identity == location.element.identity {
                    found = true
                } else if element.line == line, element.qualifiedName == name {
                    rank += 1
                }
            }
        }
        let candidates = tags.tags.filter { $0.endLine == line && $0.name == name }
        return rank < candidates.count ? candidates[rank].position : SourcePosition(line: line, column: 1)
    }
}
