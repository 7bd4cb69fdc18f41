/// Escaping of album text for each output language. Every string that reaches a page passes here.
///
/// Each escape has a byte scan that lets the usual text (no character to escape) through as it
/// is, and a scalar-by-scalar path that does the work; `EscapeTests` holds every scan to passing
/// only text its path would leave unchanged.
public enum Escape {
    /// Text as XML/XHTML character data or a quoted attribute value.
    ///
    /// Escapes `& < > " '`, and replaces characters that XML 1.0 forbids (C0 controls other than
    /// tab, newline and carriage return; U+FFFE, U+FFFF) with U+FFFD, so any album text yields a
    /// well-formed page.
    public static func xml(_ text: String) -> String {
        isPlainXML(text) ? text : escapingXML(text)
    }

    /// ``xml(_:)``'s work, scalar by scalar.
    static func escapingXML(_ text: String) -> String {
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
        noByte(of: text) { byte in
            switch byte {
            case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"), 0xEF: true
            case 0..<0x20: byte != 0x09 && byte != 0x0A && byte != 0x0D
            default: false
            }
        }
    }

    /// Text with the characters XML 1.0 forbids replaced by U+FFFD and nothing else changed: for
    /// values that a template engine escapes itself.
    public static func xmlCharacters(_ text: String) -> String {
        hasNoForbiddenXMLByte(text) ? text : replacingForbiddenXML(text)
    }

    /// ``xmlCharacters(_:)``'s work, scalar by scalar.
    static func replacingForbiddenXML(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isForbiddenInXML) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(isForbiddenInXML(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(result)
    }

    /// Whether `text` has no byte that can start a character XML forbids: a C0 control other
    /// than tab, newline and carriage return, or 0xEF (which starts U+FFFE and U+FFFF).
    static func hasNoForbiddenXMLByte(_ text: String) -> Bool {
        noByte(of: text) { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0xEF }
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
        isPlainJSON(text, htmlSafe: htmlSafe) ? "\"" + text + "\"" : escapingJSON(text, htmlSafe: htmlSafe)
    }

    /// ``jsonString(_:htmlSafe:)``'s work, scalar by scalar.
    static func escapingJSON(_ text: String, htmlSafe: Bool) -> String {
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
        noByte(of: text) { byte in
            byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xE2
                || (htmlSafe && (byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&")))
        }
    }

    /// Whether no UTF-8 byte of `text` is `flagged`, scanned over the contiguous bytes (iterating
    /// `utf8` costs several times as much per byte).
    @inline(__always)
    private static func noByte(of text: String, _ flagged: (UInt8) -> Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in !bytes.contains(where: flagged) }
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
