extension TemplateSet {
    /// Errors for a value written into an attribute that holds script: an event handler
    /// (`onclick="log('{{album.title}}')"`) or `srcdoc`.
    ///
    /// HTML escaping does not make text safe there: the browser decodes `&#39;` back to `'`
    /// before the script runs, so a title such as `x');alert(1);('` runs as script on the site.
    /// The same mistake in a link, `href="javascript:…"`, is refused when the page is checked;
    /// this one cannot be seen in the output, only in the template. Values that are numbers
    /// whatever the albums hold (`index`, `number`, `year`…) are let through.
    static func scriptAttributeFindings(in nodes: [MustacheNode], path: String) -> [Diagnostic] {
        var context: [UInt8] = []
        return scriptAttributeFindings(in: nodes, path: path, context: &context)
    }

    /// Names whose values are always numbers, safe in a script.
    static let numericNames: Set<String> = ["index", "number", "count", "x", "y", "width", "height", "year", "imageSize", "page", "pages", "padding", "dimension", "offset"]

    private static func scriptAttributeFindings(in nodes: [MustacheNode], path: String, context: inout [UInt8]) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for node in nodes {
            switch node {
            case .text(let bytes, _):
                context += bytes
                // The tag a value stands in is never longer than this.
                if context.count > 4096 { context.removeFirst(context.count - 2048) }
            case .variable(let name, _, let position):
                guard let attribute = scriptAttribute(endingAt: context), !numericNames.contains(name.parts.last ?? "") else { continue }
                let tag = "{{" + name.parts.joined(separator: ".") + "}}"
                let key = (name.parts.last ?? "value").lowercased()
                findings.append(.error(
                    "\(tag) is written into the \(attribute) attribute, which holds script: HTML escaping does not make text safe there (the browser turns &#39; back into a quote before the script runs), so an album's text could run as script on the site; put the value in a data- attribute (data-\(key)=\"\(tag)\") and read it from the script (this.dataset.\(key))",
                    path: path, at: position
                ))
            case .section(_, _, let body, _):
                var inner = context
                findings += scriptAttributeFindings(in: body, path: path, context: &inner)
            case .parent(_, _, let overrides, _):
                for key in overrides.keys.sorted() {
                    var inner: [UInt8] = []
                    findings += scriptAttributeFindings(in: overrides[key]?.body ?? [], path: path, context: &inner)
                }
            case .block(_, let content, _, _):
                var inner = context
                findings += scriptAttributeFindings(in: content.body, path: path, context: &inner)
            case .indent, .partial:
                continue
            }
        }
        return findings
    }

    /// The name of the script attribute (`on…`, `srcdoc`) whose value `text` ends inside, if
    /// it does: `text` is read as HTML is, tags, attributes and quoted values (which may hold
    /// `<` and `>`), comments, and the raw text of `<script>` and `<style>`.
    static func scriptAttribute(endingAt text: [UInt8]) -> String? {
        enum State { case text, tagName, attributes, name, afterName, beforeValue, quoted(UInt8), unquoted, comment, raw([UInt8]) }
        var state = State.text
        var element: [UInt8] = []
        var name: [UInt8] = []
        var index = 0
        func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
        func has(_ literal: String, at position: Int) -> Bool {
            let bytes = Array(literal.utf8)
            return position + bytes.count <= text.count && zip(text[position...], bytes).allSatisfy { lower($0) == $1 }
        }
        func endTag() -> State {
            let tag = String(decoding: element, as: UTF8.self)
            return tag == "script" || tag == "style" ? .raw(Array("</\(tag)".utf8)) : .text
        }
        while index < text.count {
            let byte = text[index]
            switch state {
            case .text:
                if byte == UInt8(ascii: "<") {
                    if has("<!--", at: index) {
                        state = .comment
                        index += 3
                    } else if index + 1 < text.count, (lower(text[index + 1]) >= 0x61 && lower(text[index + 1]) <= 0x7A) {
                        state = .tagName
                        element = []
                    }
                }
            case .tagName:
                if isSpace(byte) { state = .attributes } else if byte == UInt8(ascii: ">") { state = endTag() } else { element.append(lower(byte)) }
            case .attributes:
                if byte == UInt8(ascii: ">") { state = endTag() } else if !isSpace(byte), byte != UInt8(ascii: "/") {
                    state = .name
                    name = [lower(byte)]
                }
            case .name:
                if byte == UInt8(ascii: "=") { state = .beforeValue } else if isSpace(byte) { state = .afterName } else if byte == UInt8(ascii: ">") { state = endTag() } else { name.append(lower(byte)) }
            case .afterName:
                if byte == UInt8(ascii: "=") { state = .beforeValue } else if byte == UInt8(ascii: ">") { state = endTag() } else if !isSpace(byte) {
                    state = .name
                    name = [lower(byte)]
                }
            case .beforeValue:
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { state = .quoted(byte) } else if !isSpace(byte) { state = .unquoted }
            case .quoted(let quote):
                if byte == quote { state = .attributes }
            case .unquoted:
                if isSpace(byte) { state = .attributes } else if byte == UInt8(ascii: ">") { state = endTag() }
            case .comment:
                if has("-->", at: index) {
                    state = .text
                    index += 2
                }
            case .raw(let closing):
                if byte == UInt8(ascii: "<"), has(String(decoding: closing, as: UTF8.self), at: index) { state = .text }
            }
            index += 1
        }
        switch state {
        case .beforeValue, .quoted, .unquoted:
            let attribute = String(decoding: name, as: UTF8.self)
            return isScript(attribute) ? attribute : nil
        default:
            return nil
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    private static func isScript(_ attribute: String) -> Bool {
        (attribute.hasPrefix("on") && attribute.count > 2) || attribute == "srcdoc"
    }
}
