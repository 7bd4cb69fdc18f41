/// Where a file that should be UTF-8 text stops being it, for a message that points at the
/// byte and says what to do: a template or `gallery.toml` saved by an editor in Latin-1 or
/// Windows-1252 (an `é` as the one byte 0xE9) was refused with no line to look at.
struct TextEncodingProblem: Sendable, Hashable {
    /// The first byte that is not part of a valid UTF-8 sequence.
    var byte: UInt8
    /// Where it is: its line, and its column counted in characters before it, from 1.
    var position: SourcePosition
    /// Whether the file starts with UTF-16's byte-order mark.
    var isUTF16 = false

    /// The first invalid sequence of `bytes`, or `nil` when they are valid UTF-8.
    static func find(in bytes: [UInt8]) -> TextEncodingProblem? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        var position = SourcePosition(line: 1, column: 1)
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                if scalar == "\n" {
                    position.line += 1
                    position.column = 1
                } else {
                    position.column += 1
                }
            case .emptyInput:
                return nil
            case .error:
                return TextEncodingProblem(byte: bytes[min(offset, bytes.count - 1)], position: position, isUTF16: bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]))
            }
        }
    }

    /// The message for a file of this `kind` ("this template", "gallery.toml").
    func message(_ kind: String) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        // Windows's editors save "Unicode" as UTF-16 with a byte-order mark, which is no Latin-1.
        if isUTF16 { return "\(kind) is not UTF-8 text: it starts with the byte-order mark of UTF-16 (an editor's \"Unicode\"); save the file as UTF-8" }
        return "\(kind) is not UTF-8 text: the byte 0x\(hex.count == 1 ? "0" + hex : hex) here starts no UTF-8 character (an editor saved it as Latin-1 or Windows-1252?); save the file as UTF-8"
    }
}
