/// What to do about libxml2's messages for the HTML habits that XHTML does not allow, added after
/// the message: libxml2 says what it found (`Entity 'nbsp' not defined`), not how to write it.
enum ParseErrorHint {
    /// The elements that never have content: HTML writes them `<br>`, XHTML `<br/>`.
    static let voidElements: Set<Substring> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]

    /// For a bare `&`: in text, and as often in a link (`?v=abc&t=42`).
    private static let ampersandHint = "write &amp; for an & in text or an attribute (a link's ?a=1&b=2 as ?a=1&amp;b=2)"

    private static let scriptHint = "a < or & in an inline script must be escaped in XHTML: move the script to a file under assets/ or static/, or wrap it in //<![CDATA[ … //]]>"

    /// For a style sheet: the HTML parser reads `<style>` as raw text too, so the text advice
    /// (`&lt;`) would reach the CSS as it is.
    private static let styleHint = "a < or & in an inline style breaks XHTML, and written &lt; or &amp; it reaches the CSS as it is in a browser: move the CSS to a file under assets/, or wrap it in /*<![CDATA[*/ … /*]]>*/"

    /// `message` with a hint after it (`…; void elements must close themselves in XHTML: <br/>`)
    /// when it is one of the common mistakes; `message` as it is otherwise. `position` is where
    /// libxml2 reported it in the page `source`.
    static func hinted(_ message: String, at position: SourcePosition?, in source: [UInt8]) -> String {
        // libxml2's "Input is not proper UTF-8, indicate encoding !\nBytes: 0xE9 0x3C…", which
        // printed as one line with a literal \u{A} and said nothing of what to do.
        if message.hasPrefix("Input is not proper UTF-8") {
            let bytes = message.range(of: "Bytes: ").map { " (bytes " + message[$0.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines) + ")" } ?? ""
            return "this is not UTF-8 text\(bytes); pages are UTF-8: save the file as UTF-8 (from Latin-1: iconv -f latin1 -t utf-8)"
        }
        guard let hint = hint(for: message, at: position, in: source) else { return message }
        return message + "; " + hint
    }

    /// The hint for one of libxml2's messages, or `nil`.
    static func hint(for message: String, at position: SourcePosition?, in source: [UInt8]) -> String? {
        if let (open, close) = mismatch(in: message) {
            if close == "script" { return scriptHint }
            if close == "style" { return styleHint }
            if voidElements.contains(open) { return "void elements must close themselves in XHTML: <\(open)/>" }
            if open != close, open.lowercased() == close.lowercased() {
                return "start and end tags must be spelt alike, in lowercase in XHTML: <\(close.lowercased())>…</\(close.lowercased())>"
            }
            return nil
        }
        if let position, let element = rawTextElement(around: position, in: source) { return element == "style" ? styleHint : scriptHint }
        if let name = quoted(after: "Entity '", in: message), message.hasSuffix("' not defined") {
            let known = "XHTML knows only &amp; &lt; &gt; &quot; &apos;"
            guard let scalar = XMLDocument.htmlEntity(named: String(name)) else {
                return "\(known): write the character itself, or &amp; for an & in text or an attribute"
            }
            return "\(known): write &#\(scalar.value); for &\(name);"
        }
        if let prefix = undeclaredPrefix(in: message) {
            if prefix == "xlink" {
                return "write href=\"…\" (SVG 2), or declare xmlns:xlink=\"http://www.w3.org/1999/xlink\" on the <svg>"
            }
            let known = ["svg": "http://www.w3.org/2000/svg", "math": "http://www.w3.org/1998/Math/MathML", "xhtml": "http://www.w3.org/1999/xhtml"]
            return "declare xmlns:\(prefix)=\"\(known[String(prefix)] ?? "…")\" on that element or one around it, or drop the prefix"
        }
        if message.hasPrefix("AttValue: \" or ' expected") { return "attribute values must be quoted in XHTML" }
        if message.hasPrefix("Specification mandates value for attribute "), let name = message.split(separator: " ").last {
            return "attributes need a value in XHTML: \(name)=\"\(name)\""
        }
        if message.hasPrefix("StartTag: invalid element name") { return "write &lt; for a < in text" }
        if message.hasPrefix("xmlParseEntityRef: no name") || message.hasPrefix("EntityRef: expecting ';'") {
            return ampersandHint
        }
        return nil
    }

    /// The prefix of "Namespace prefix P for ATTRIBUTE on ELEMENT is not defined" (an
    /// attribute's) or "Namespace prefix P on ELEMENT is not defined" (an element's).
    private static func undeclaredPrefix(in message: String) -> Substring? {
        let start = "Namespace prefix "
        guard message.hasPrefix(start), message.hasSuffix(" is not defined") else { return nil }
        return message.dropFirst(start.count).split(separator: " ").first
    }

    /// The two names of "Opening and ending tag mismatch: OPEN line N and CLOSE".
    private static func mismatch(in message: String) -> (open: Substring, close: Substring)? {
        let prefix = "Opening and ending tag mismatch: "
        guard message.hasPrefix(prefix) else { return nil }
        let words = message.dropFirst(prefix.count).split(separator: " ")
        guard words.count == 5, words[1] == "line", words[3] == "and" else { return nil }
        return (words[0], words[4])
    }

    /// The text between `prefix` and the next `'`.
    private static func quoted(after prefix: String, in message: String) -> Substring? {
        guard message.hasPrefix(prefix) else { return nil }
        let rest = message.dropFirst(prefix.count)
        return rest.firstIndex(of: "'").map { rest[..<$0] }
    }

    /// The `script` or `style` element whose content `position` lies in, if any: after the `>`
    /// of the last `<script` or `<style` start tag before it, with no end tag between.
    static func rawTextElement(around position: SourcePosition, in source: [UInt8]) -> String? {
        guard let offset = TemplateAttribution.byteOffset(of: position, in: source) else { return nil }
        var index = min(offset, source.count) - 1
        while index >= 0 {
            if source[index] == UInt8(ascii: "<") {
                for name in ["script", "style"] {
                    if source[index...].starts(with: Array("</\(name)".utf8)) { return nil }
                    let open = Array("<\(name)".utf8)
                    if source[index...].starts(with: open), index + open.count < source.count,
                       [UInt8(ascii: " "), UInt8(ascii: ">"), 0x09, 0x0A, 0x0D].contains(source[index + open.count]) {
                        guard let end = source[index..<offset].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                        return source[end - 1] != UInt8(ascii: "/") ? name : nil
                    }
                }
            }
            index -= 1
        }
        return nil
    }
}
