/// Percent-escapes (`%C3%BA`) in the bytes of a URL or a path.
public enum PercentEscape {
    /// Whether the `%` at `index` begins an escape: two hexadecimal digits follow it. One that
    /// does not (`/50%off/`, `/%zz`) names nothing as it is written.
    public static func begins(at index: Int, in bytes: [UInt8]) -> Bool {
        index + 2 < bytes.count && isHexDigit(bytes[index + 1]) && isHexDigit(bytes[index + 2])
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}
