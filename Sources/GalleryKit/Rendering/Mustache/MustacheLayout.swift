/// Which template lines are standalone, and how blocks are re-indented.
///
/// A line is standalone when it holds one tag other than an interpolation and nothing else but
/// spaces and tabs: it leaves no trace in the output. Inheritance adds pairs of adjacent tags,
/// as the specification's inheritance tests require: `{{<parent}}{{/parent}}`,
/// `{{<parent}}{{$block}}` and `{{/block}}{{/parent}}` lines vanish like a single tag, and a
/// `{{$block}}{{/block}}` line loses its indentation but keeps its line break.
///
/// A block whose opening tag is standalone has its content de-indented by the whitespace all its
/// lines share (its intrinsic indentation); where a block is expanded on a line of its own, its
/// content (the default or an override) is indented again by the default's intrinsic
/// indentation or, when that is empty, by the whitespace before the tag.
struct MustacheLayout {
    /// How a line's own text and line break reach the output.
    enum LineKind: Equatable {
        /// As written.
        case kept
        /// Not at all: only its tags matter.
        case standalone
        /// Its leading whitespace goes, its line break stays (`{{$block}}{{/block}}`).
        case standaloneKeepingBreak
    }

    /// The lines, with block contents de-indented once ``reindentBlocks()`` has run.
    private(set) var lines: [MustacheScanner.Line]
    /// Each line's kind, by line index.
    let kinds: [LineKind]
    /// For each block tag on a line of its own, by tag id: the indentation its expansion gets.
    private(set) var siteIndentation: [Int: [UInt8]] = [:]
    private let structure: MustacheStructure

    /// Classifies the lines of a template whose tags are paired.
    init(lines: [MustacheScanner.Line], structure: MustacheStructure) {
        self.lines = lines
        self.structure = structure
        kinds = lines.indices.map { Self.kind(of: lines[$0], firstTagID: structure.firstTagIDs[$0], structure: structure) }
    }

    private static func kind(of line: MustacheScanner.Line, firstTagID: Int, structure: MustacheStructure) -> LineKind {
        var tagTokenIndices: [Int] = []
        for (index, token) in line.tokens.enumerated() {
            switch token {
            case .text(let bytes, _):
                guard bytes.allSatisfy(isBlank) else { return .kept }
            case .tag:
                tagTokenIndices.append(index)
            }
        }
        let kinds = structure.kinds
        if tagTokenIndices.count == 1 {
            return kinds[firstTagID].canStandAlone ? .standalone : .kept
        }
        guard tagTokenIndices.count == 2, tagTokenIndices[1] == tagTokenIndices[0] + 1 else { return .kept }
        let first = firstTagID
        let second = firstTagID + 1
        switch (kinds[first], kinds[second]) {
        case (.parent, .close), (.parent, .block):
            return .standalone
        case (.close, .close):
            let closesBlockThenParent = kinds[structure.partners[first]] == .block && kinds[structure.partners[second]] == .parent
            return closesBlockThenParent ? .standalone : .kept
        case (.block, .close):
            return .standaloneKeepingBreak
        default:
            return .kept
        }
    }

    /// De-indents the content of every block whose opening tag is standalone, outer blocks
    /// first, and records the indentation each standalone block expansion gets.
    mutating func reindentBlocks() {
        for id in structure.kinds.indices where structure.kinds[id] == .block {
            let openLine = structure.lineIndices[id]
            guard kinds[openLine] != .kept else { continue }
            let closeLine = structure.lineIndices[structure.partners[id]]
            let lastContentLine = kinds[closeLine] == .kept ? closeLine : closeLine - 1
            var intrinsic: [UInt8]?
            if openLine < lastContentLine {
                let content = (openLine + 1)...lastContentLine
                for index in content where !lines[index].isBlank {
                    let leading = lines[index].leadingWhitespace
                    intrinsic = intrinsic.map { Self.commonPrefix($0, leading) } ?? Array(leading)
                }
                if let intrinsic, !intrinsic.isEmpty {
                    for index in content { lines[index].dropLeadingWhitespace(matching: intrinsic) }
                }
            }
            let before = Array(lines[openLine].leadingWhitespace)
            siteIndentation[id] = intrinsic.flatMap { $0.isEmpty ? nil : $0 } ?? before
        }
    }

    private static func commonPrefix(_ a: [UInt8], _ b: ArraySlice<UInt8>) -> [UInt8] {
        Array(zip(a, b).prefix { $0 == $1 }.map(\.0))
    }

    /// Whether a byte is a space or a tab: the whitespace of indentation and standalone lines.
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }
}

extension MustacheScanner.Line {
    /// The spaces and tabs the line starts with.
    var leadingWhitespace: ArraySlice<UInt8> {
        guard case .text(let bytes, _) = tokens.first else { return [] }
        return bytes.prefix(while: MustacheLayout.isBlank)
    }

    /// Whether the line has nothing but spaces and tabs.
    var isBlank: Bool {
        tokens.allSatisfy { token in
            if case .text(let bytes, _) = token { bytes.allSatisfy(MustacheLayout.isBlank) } else { false }
        }
    }

    /// Removes as much of `prefix` as the line starts with.
    mutating func dropLeadingWhitespace(matching prefix: [UInt8]) {
        guard case .text(let bytes, let line) = tokens.first else { return }
        let count = zip(bytes, prefix).prefix { $0 == $1 }.count
        guard count > 0 else { return }
        if count == bytes.count {
            tokens.removeFirst()
        } else {
            tokens[0] = .text(Array(bytes[count...]), line: line)
        }
    }
}
