/// Builds a generated file (the SVG strip, the data files, the sitemap, the build manifest) as
/// UTF-8 bytes: one growing buffer instead of a `String` appended to piece by piece. Text is
/// escaped by ``Escape``'s rules; text that needs no escaping (nearly all of it) is copied as it is.
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

    /// Writes sixteen lowercase hex digits, as ``FastHash``'s `hex16` spells a hash.
    mutating func writeHex16(_ value: UInt64) {
        for shift in stride(from: 60, through: 0, by: -4) {
            bytes.append(Self.hexDigits[Int(truncatingIfNeeded: value >> UInt64(shift)) & 0xF])
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Forgets what was written, keeping the room, to write something else.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// How many bytes were written.
    var count: Int { bytes.count }

    /// Writes bytes as they are.
    mutating func write(bytes other: some Collection<UInt8>) {
        bytes.append(contentsOf: other)
    }

    /// Appends what another writer wrote.
    mutating func write(_ other: ByteWriter) {
        bytes += other.bytes
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
