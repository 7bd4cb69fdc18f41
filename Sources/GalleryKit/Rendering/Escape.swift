/// Escaping of album text for each output language. Every string that reaches a page passes here.
public enum Escape {
    /// Text as XML/XHTML character data or a quoted attribute value.
    ///
    /// Escapes `& < > " '`, and replaces characters that XML 1.0 forbids (C0 controls other than
    /// tab, newline and carriage return; U+FFFE, U+FFFF) with U+FFFD, so any album text yields a
    /// well-formed page.
    public static func xml(_ text: String) -> String {
        guard !isPlainXML(text) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether ``xml(_:)`` leaves `text` as it is: no markup character, no forbidden control
    /// character, and no byte 0xEF (which starts U+FFFE and U+FFFF).
    static func isPlainXML(_ text: String) -> Bool {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"), 0xEF:
                return false
            case 0..<0x20 where byte != 0x09 && byte != 0x0A && byte != 0x0D:
                return false
            default:
                continue
            }
        }
        return true
    }

    /// Text with the characters XML 1.0 forbids replaced by U+FFFD and nothing else changed: for
    /// values that a template engine escapes itself.
    public static func xmlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isForbiddenInXML) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(isForbiddenInXML(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(result)
    }

    private static func isForbiddenInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0..<0x20, 0xFFFE, 0xFFFF: true
        default: false
        }
    }

    /// A JSON string literal, quotes included.
    ///
    /// - Parameter htmlSafe: Also escape `<`, `>`, `&` and U+2028/U+2029, so the JSON can sit
    ///   inside a `<script>` element or be evaluated as JavaScript without surprises.
    public static func jsonString(_ text: String, htmlSafe: Bool = false) -> String {
        if isPlainJSON(text, htmlSafe: htmlSafe) { return "\"" + text + "\"" }
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{8}": result += "\\b"
            case "\u{C}": result += "\\f"
            case "\u{0}"..."\u{1F}": result += unicodeEscape(scalar.value)
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                if htmlSafe { result += unicodeEscape(scalar.value) } else { result.unicodeScalars.append(scalar) }
            default: result.unicodeScalars.append(scalar)
            }
        }
        result += "\""
        return result
    }

    /// Whether ``jsonString(_:htmlSafe:)`` only puts quotes around `text`: no control character,
    /// quote or backslash, no byte 0xE2 (which starts U+2028 and U+2029), and with `htmlSafe`
    /// no `<`, `>` or `&`.
    static func isPlainJSON(_ text: String, htmlSafe: Bool) -> Bool {
        for byte in text.utf8 {
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xE2 { return false }
            if htmlSafe, byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&") { return false }
        }
        return true
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
