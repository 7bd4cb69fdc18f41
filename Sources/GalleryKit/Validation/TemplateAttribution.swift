/// Names the template behind a faulty spot of a rendered page.
///
/// Album text is always escaped, so broken markup comes from a template. The page is rendered
/// again with tracing on; the trace says which template line wrote each run of output, and the
/// diagnostic's line and column pick the run.
enum TemplateAttribution {
    /// The diagnostics with the template's file and line that wrote the faulty spot.
    ///
    /// libxml2 reports an element left open where the element around it ends ("Opening and
    /// ending tag mismatch: br line 45 and main", at `</main>`), which the base layout wrote; the
    /// mistake is where the open one began, so such a finding is traced from its opening tag.
    ///
    /// A duplicate's first use (`duplicate id 'details' (first used on line 41)`) is a line of
    /// the page, which next to a template's line reads as one of the template's: it is traced
    /// too, and named by its template (`(first used at templates/partials/details.mustache:1)`),
    /// or else by the page, whose path in the output is `outputFolder` and the diagnostic's path.
    ///
    /// A page that came out empty has no run to trace: it is named by `pageTemplate`, the
    /// template that renders it, so the finding is said once for all its pages, not once a page
    /// (an empty base layout gave one "Document is empty" for each of 10,000 pages).
    static func attribute(_ diagnostics: [Diagnostic], output: [UInt8], trace: [MustacheRenderer.TraceEntry], templates: TemplateSet, outputFolder: String? = nil, pageTemplate: String? = nil) -> [Diagnostic] {
        if let pageTemplate, let source = templates.sources[pageTemplate], output.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return diagnostics.map { diagnostic in
                var attributed = diagnostic
                attributed.template = "\(source.displayPath(name: pageTemplate)):1"
                attributed.message = "the page is empty: neither the template \(pageTemplate) nor a layout it extends wrote anything (libxml2: \(diagnostic.message))"
                return attributed
            }
        }
        return diagnostics.map { diagnostic in
            guard let position = diagnostic.position,
                  let offset = openingTag(named: diagnostic.message, in: output) ?? byteOffset(of: position, in: output),
                  let entry = entry(at: offset, in: trace),
                  let source = templates.sources[entry.template]
            else { return diagnostic }
            var attributed = diagnostic
            attributed.template = "\(source.displayPath(name: entry.template)):\(entry.line)"
            if let firstUse = diagnostic.firstUse, diagnostic.message.hasSuffix(Findings.firstUseNote(line: firstUse.line)) {
                let place: String
                if let offset = byteOffset(of: firstUse, in: output), let first = Self.entry(at: offset, in: trace), let firstSource = templates.sources[first.template] {
                    place = "\(firstSource.displayPath(name: first.template)):\(first.line)"
                } else {
                    place = (outputFolder.map { $0 + "/" } ?? "") + "\(diagnostic.path):\(firstUse)"
                }
                attributed.message = diagnostic.message.dropLast(Findings.firstUseNote(line: firstUse.line).count) + " (first used at \(place))"
            }
            return attributed
        }
    }

    /// For "Opening and ending tag mismatch: NAME line N and …", the byte offset of the last
    /// `<NAME` on line N of the output that is not closed on the spot (`<NAME …/>`).
    static func openingTag(named message: String, in bytes: [UInt8]) -> Int? {
        let prefix = "Opening and ending tag mismatch: "
        guard message.hasPrefix(prefix) else { return nil }
        let parts = message.dropFirst(prefix.count).split(separator: " ", maxSplits: 3)
        guard parts.count >= 3, parts[1] == "line", let line = Int(parts[2]), line > 0,
              let start = byteOffset(of: SourcePosition(line: line, column: 1), in: bytes) else { return nil }
        let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
        let tag = Array(("<" + parts[0]).utf8)
        var found: Int?
        var index = start
        while index + tag.count <= end {
            if Array(bytes[index..<index + tag.count]) == tag, index + tag.count < end,
               [0x20, 0x3E, 0x2F, 0x09].contains(bytes[index + tag.count]) {
                let close = bytes[index..<end].firstIndex(of: 0x3E)
                if close == nil || bytes[close! - 1] != 0x2F { found = index }
            }
            index += 1
        }
        return found
    }

    /// The trace entry covering a byte offset: the last one starting at or before it.
    static func entry(at offset: Int, in trace: [MustacheRenderer.TraceEntry]) -> MustacheRenderer.TraceEntry? {
        var low = 0
        var high = trace.count
        while low < high {
            let middle = (low + high) / 2
            if trace[middle].offset <= offset { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? trace[low - 1] : nil
    }

    /// The 1-based line and column (in Unicode scalars) of a byte offset: the inverse of
    /// ``byteOffset(of:in:)``.
    static func position(ofByte offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourcePosition {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourcePosition(line: line, column: column)
    }

    /// The byte offset of a 1-based line and column (columns count Unicode scalars).
    static func byteOffset(of position: SourcePosition, in bytes: [UInt8]) -> Int? {
        var line = 1
        var index = 0
        while line < position.line {
            guard let newline = bytes[index...].firstIndex(of: 0x0A) else { return nil }
            index = newline + 1
            line += 1
        }
        var column = 1
        while column < position.column, index < bytes.count, bytes[index] != 0x0A {
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
            column += 1
        }
        return min(index, max(bytes.count - 1, 0))
    }
}

/// Keeps a broken template from flooding the terminal: the same template mistake shows on every
/// page it renders, so findings that share a template line and a message (numbers aside) are
/// reported once, with the count of the other pages (`Diagnostic.otherPages`).
enum DiagnosticDigest {
    static func condense(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var firstIndex: [String: Int] = [:]
        var counts: [Int] = []
        var kept: [Diagnostic] = []
        for diagnostic in diagnostics {
            guard let template = diagnostic.template else {
                kept.append(diagnostic)
                counts.append(1)
                continue
            }
            let shape = Self.shape(of: diagnostic.message)
            let key = "\(diagnostic.severity)|\(template)|\(shape)"
            if let index = firstIndex[key] {
                counts[index] += 1
            } else {
                firstIndex[key] = kept.count
                kept.append(diagnostic)
                counts.append(1)
            }
        }
        return zip(kept, counts).map { diagnostic, count in
            var condensed = diagnostic
            condensed.otherPages = count - 1
            return condensed
        }
    }

    /// A message without what differs from page to page for one template mistake: numbers,
    /// the path a link resolves to from each page (`(no such file in the output: albums/x/…)`),
    /// and how far up a link climbs from its page (`../../impressum.html`, `./impressum.html`).
    static func shape(of message: String) -> String {
        var text = message
        if let resolved = text.range(of: " (no such file in the output: ") {
            text = String(text[..<resolved.lowerBound])
        }
        text = text.replacingOccurrences(of: #"'(\.\.?/)+"#, with: "'", options: .regularExpression)
        return String(text.unicodeScalars.filter { !("0"..."9").contains($0) })
    }
}
