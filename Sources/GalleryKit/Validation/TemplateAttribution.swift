/// Names the template behind a faulty spot of a rendered page.
///
/// Album text is always escaped, so broken markup comes from a template. The page is rendered
/// again with tracing on; the trace says which template line wrote each run of output, and the
/// diagnostic's line and column pick the run.
enum TemplateAttribution {
    /// The diagnostics with the template's file and line that wrote the faulty spot.
    static func attribute(_ diagnostics: [Diagnostic], output: [UInt8], trace: [MustacheRenderer.TraceEntry], templates: TemplateSet) -> [Diagnostic] {
        diagnostics.map { diagnostic in
            guard let position = diagnostic.position,
                  let offset = byteOffset(of: position, in: output),
                  let entry = entry(at: offset, in: trace),
                  let source = templates.sources[entry.template]
            else { return diagnostic }
            var attributed = diagnostic
            attributed.template = "\(source.displayPath(name: entry.template)):\(entry.line)"
            return attributed
        }
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
/// reported once, with the count of pages.
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
            let shape = String(diagnostic.message.unicodeScalars.filter { !("0"..."9").contains($0) })
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
            if count > 1 { condensed.message += " (and \(count - 1) more like it on other pages)" }
            return condensed
        }
    }
}
