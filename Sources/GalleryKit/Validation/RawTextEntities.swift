/// Entity and character references in the content of an inline `<script>` or `<style>`, which
/// a polyglot page must not hold: XML decodes `&lt;` there to `<`, but a browser reads the
/// page as HTML, whose parser takes the content of these two elements as raw text and leaves
/// `&lt;` as it is, so the script or style sheet a browser runs is not the one the checks read.
/// Inside a CDATA section both read the same characters, so references there are left alone.
enum RawTextEntities {
    /// The elements whose content the HTML parser reads as raw text, when in the XHTML namespace.
    static let elements: Set<String> = ["script", "style"]

    /// The byte offsets of the references (`&lt;`, `&amp;`, `&#60;`, `&#x3C;`) in the content
    /// of the element whose start tag's `<` is at `tagStart`: from after the start tag to the
    /// element's end tag, leaving out CDATA sections, comments and processing instructions
    /// (whose `<!--` or `</script` is no markup).
    static func references(in source: UnsafeBufferPointer<UInt8>, elementAt tagStart: Int) -> [Int] {
        var nameEnd = tagStart + 1
        while nameEnd < source.count, isNameByte(source[nameEnd]) { nameEnd += 1 }
        let close = [UInt8(ascii: "<"), UInt8(ascii: "/")] + Array(source[(tagStart + 1)..<nameEnd])
        let tagEnd = TagStartIndex.endOfTag(in: source, from: nameEnd)
        guard tagEnd < source.count, source[tagEnd - 1] != UInt8(ascii: "/") else { return [] }
        var found: [Int] = []
        var index = tagEnd + 1
        while index < source.count {
            switch source[index] {
            case UInt8(ascii: "<"):
                if TagStartIndex.hasPrefix(source, at: index, "<![CDATA[") {
                    index = TagStartIndex.end(of: "]]>", in: source, from: index + 9)
                } else if TagStartIndex.hasPrefix(source, at: index, "<!--") {
                    index = TagStartIndex.end(of: "-->", in: source, from: index + 4)
                } else if TagStartIndex.hasPrefix(source, at: index, "<?") {
                    index = TagStartIndex.end(of: "?>", in: source, from: index + 2)
                } else if source[index...].starts(with: close) {
                    return found
                } else {
                    index += 1
                }
            case UInt8(ascii: "&"):
                if let end = endOfReference(in: source, at: index) {
                    found.append(index)
                    index = end
                } else {
                    index += 1
                }
            default:
                index += 1
            }
        }
        return found
    }

    /// The text of the element whose start tag's `<` is at `tagStart` as XML reads it, its
    /// character data and the content of its CDATA sections (empty for an empty-element tag);
    /// `nil` when it holds anything else (a comment, an instruction, an element) or no end tag
    /// follows, as its text and its end are then not for a scan of the bytes to tell
    /// (`<style><!-- </style> -->…</style>`). With references in its character data the text
    /// is as written, not decoded.
    static func text(in source: UnsafeBufferPointer<UInt8>, elementAt tagStart: Int) -> [UInt8]? {
        var nameEnd = tagStart + 1
        while nameEnd < source.count, isNameByte(source[nameEnd]) { nameEnd += 1 }
        let close = [UInt8(ascii: "<"), UInt8(ascii: "/")] + Array(source[(tagStart + 1)..<nameEnd])
        let tagEnd = TagStartIndex.endOfTag(in: source, from: nameEnd)
        guard tagEnd < source.count else { return nil }
        if source[tagEnd - 1] == UInt8(ascii: "/") { return [] }
        var text: [UInt8] = []
        var index = tagEnd + 1
        while index < source.count {
            guard source[index] == UInt8(ascii: "<") else {
                text.append(source[index])
                index += 1
                continue
            }
            if TagStartIndex.hasPrefix(source, at: index, "<![CDATA[") {
                let end = TagStartIndex.end(of: "]]>", in: source, from: index + 9)
                guard end <= source.count, end - 3 >= index + 9 else { return nil }
                text.append(contentsOf: source[(index + 9)..<(end - 3)])
                index = end
            } else if source[index...].starts(with: close) {
                return text
            } else {
                return nil
            }
        }
        return nil
    }

    /// The reference at `offset` as written (`&lt;`), and the character XML reads for it when
    /// it is one of XML's five or a character reference.
    static func reference(at offset: Int, in source: UnsafeBufferPointer<UInt8>) -> (written: String, read: String?) {
        let end = endOfReference(in: source, at: offset) ?? min(offset + 1, source.count)
        let written = String(decoding: source[offset..<end], as: UTF8.self)
        let body = written.dropFirst().dropLast()
        let named: [Substring: String] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
        if let character = named[body] { return (written, character) }
        guard body.hasPrefix("#") else { return (written, nil) }
        let number = body.dropFirst()
        let value = number.hasPrefix("x") || number.hasPrefix("X") ? UInt32(number.dropFirst(), radix: 16) : UInt32(number)
        return (written, value.flatMap(Unicode.Scalar.init).map { String(Character($0)) })
    }

    /// The index just after a reference starting with the `&` at `index`, if one does:
    /// `&#` digits `;`, `&#x` hex digits `;`, or `&` a name `;`.
    private static func endOfReference(in source: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        var cursor = index + 1
        let isDigit: (UInt8) -> Bool
        if cursor < source.count, source[cursor] == UInt8(ascii: "#") {
            cursor += 1
            if cursor < source.count, source[cursor] | 0x20 == UInt8(ascii: "x") {
                cursor += 1
                isDigit = { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= UInt8(ascii: "a") && $0 | 0x20 <= UInt8(ascii: "f")) }
            } else {
                isDigit = { $0 >= 0x30 && $0 <= 0x39 }
            }
        } else {
            guard cursor < source.count, isNameByte(source[cursor]), !(source[cursor] >= 0x30 && source[cursor] <= 0x39) else { return nil }
            isDigit = isNameByte
        }
        let start = cursor
        while cursor < source.count, isDigit(source[cursor]) { cursor += 1 }
        guard cursor > start, cursor < source.count, source[cursor] == UInt8(ascii: ";") else { return nil }
        return cursor + 1
    }

    /// Letters, digits, `_ : - .` and any byte of a non-ASCII character: what XML names hold.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// The warning for an element whose content holds references (`offsets`, at least one): at
    /// the first, naming it and how many more there are, and what to do instead.
    static func message(element: String, offsets: [Int], in source: UnsafeBufferPointer<UInt8>) -> String {
        let first = reference(at: offsets[0], in: source)
        let more = offsets.count > 1 ? " (and \(offsets.count - 1) more)" : ""
        let read = first.read.map { " (XML reads '\($0)')" } ?? ""
        let fix = element == "style"
            ? "write the character itself, inside /*<![CDATA[*/ … /*]]>*/ if it is a < or an &, or move the CSS to a file under assets/"
            : "write the character itself, inside //<![CDATA[ … //]]> if it is a < or an &, or move the script to a file under assets/ or static/"
        return "'\(first.written)' inside an inline <\(element)>\(more) is left as it is by browsers, which read the page as HTML\(read); \(fix)"
    }
}
