/// Builds a generated file (the SVG strip, the data files, the sitemap) as UTF-8 bytes: one
/// growing buffer instead of a `String` appended to piece by piece. Text is escaped by
/// ``Escape``'s rules; text that needs no escaping (nearly all of it) is copied as it is.
struct ByteWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    /// A writer with room for `capacity` bytes before it grows.
    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes literal text.
    mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Writes text as it is.
    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Writes a whole number in decimal.
    mutating func write(_ number: Int) {
        MustacheRenderer.appendDecimal(number, to: &bytes)
    }

    /// Writes text escaped as XML character data or a quoted attribute value (``Escape/xml(_:)``).
    mutating func writeXML(_ text: String) {
        write(Escape.isPlainXML(text) ? text : Escape.xml(text))
    }

    /// Writes text as a JSON string literal, quotes included (``Escape/jsonString(_:htmlSafe:)``).
    mutating func writeJSON(_ text: String, htmlSafe: Bool) {
        guard Escape.isPlainJSON(text, htmlSafe: htmlSafe) else {
            write(Escape.jsonString(text, htmlSafe: htmlSafe))
            return
        }
        bytes.append(UInt8(ascii: "\""))
        write(text)
        bytes.append(UInt8(ascii: "\""))
    }
}
