/// Where every start tag of an XML source begins, in document order.
///
/// libxml2 2.9 records a line for each element (the line of the tag's closing `>`) but no column.
/// Start tags appear in the source in the same order as elements in the tree, so the n-th start
/// tag here is the n-th element of a pre-order walk, and its `<` gives the exact line and column.
/// Comments, CDATA sections, processing instructions and the DOCTYPE (with its internal subset)
/// are skipped, so a `<a` inside them is not mistaken for a tag.
///
/// Building the index reads the whole source once; validators build it only when a diagnostic
/// needs a position.
struct TagStartIndex {
    /// One start tag.
    struct Tag {
        /// Where its `<` is: line, and column counted in Unicode scalars, both from 1.
        var position: SourcePosition
        /// The line of its closing `>`: the line libxml2 records for the element.
        var endLine: Int
        /// The name as written (`img`, `svg:image`).
        var name: String
    }

    /// The start tags, in source order.
    let tags: [Tag]

    /// Scans `source` (UTF-8).
    init(source: [UInt8]) {
        var starts: [(offset: Int, nameEnd: Int, end: Int)] = []
        source.withUnsafeBufferPointer { bytes in
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "<") else {
                    index += 1
                    continue
                }
                if Self.hasPrefix(bytes, at: index, "<!--") {
                    index = Self.end(of: "-->", in: bytes, from: index + 4)
                } else if Self.hasPrefix(bytes, at: index, "<![CDATA[") {
                    index = Self.end(of: "]]>", in: bytes, from: index + 9)
                } else if Self.hasPrefix(bytes, at: index, "<?") {
                    index = Self.end(of: "?>", in: bytes, from: index + 2)
                } else if Self.hasPrefix(bytes, at: index, "<!") {
                    index = Self.endOfDeclaration(in: bytes, from: index + 2)
                } else if Self.hasPrefix(bytes, at: index, "</") {
                    index += 2
                } else {
                    var nameEnd = index + 1
                    while nameEnd < bytes.count, !Self.endsName(bytes[nameEnd]) { nameEnd += 1 }
                    let end = Self.endOfTag(in: bytes, from: nameEnd)
                    starts.append((index, nameEnd, end))
                    index = end
                }
            }
        }
        var tags: [Tag] = []
        tags.reserveCapacity(starts.count)
        var line = 1
        var column = 1
        var cursor = 0
        func advance(to offset: Int) {
            while cursor < offset {
                let byte = source[cursor]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
                cursor += 1
            }
        }
        for start in starts {
            advance(to: start.offset)
            let position = SourcePosition(line: line, column: column)
            advance(to: start.end)
            let name = String(decoding: source[(start.offset + 1)..<start.nameEnd], as: UTF8.self)
            tags.append(Tag(position: position, endLine: line, name: name))
        }
        self.tags = tags
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
             UInt8(ascii: "/"), UInt8(ascii: ">"), UInt8(ascii: "<"):
            true
        default:
            false
        }
    }

    static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { wanted in
            guard index + wanted.count <= bytes.count else { return false }
            for offset in 0..<wanted.count where bytes[index + offset] != wanted[offset] { return false }
            return true
        }
    }

    /// The index of the `>` that closes a start tag (skipping quoted attribute values, which may
    /// hold a `>`), or the end of the source.
    static func endOfTag(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            }
            index += 1
        }
        return bytes.count
    }

    /// The index just after the first `terminator` at or after `start`, or the end of the source.
    static func end(of terminator: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            if hasPrefix(bytes, at: index, terminator) { return index + terminator.utf8CodeUnitCount }
            index += 1
        }
        return bytes.count
    }

    /// The index just after a `<!…>` declaration such as the DOCTYPE, skipping its quoted strings,
    /// its `[…]` internal subset and the comments inside that.
    private static func endOfDeclaration(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        var depth = 0
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth -= 1
            } else if byte == UInt8(ascii: "<"), hasPrefix(bytes, at: index, "<!--") {
                index = end(of: "-->", in: bytes, from: index + 4)
                continue
            } else if byte == UInt8(ascii: ">"), depth <= 0 {
                return index + 1
            }
            index += 1
        }
        return bytes.count
    }
}
