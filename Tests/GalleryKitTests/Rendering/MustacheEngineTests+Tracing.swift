import Testing

@testable import GalleryKit

/// Tracing: every output byte maps to the template line that wrote it.
extension MustacheEngineTests {
    /// The template and line behind each line of `output`, read through the trace at the first
    /// byte of the line.
    private func origins(of output: String, trace: [MustacheRenderer.TraceEntry]) -> [String] {
        var origins: [String] = []
        var offset = 0
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            let entry = TemplateAttribution.entry(at: offset, in: trace)
            origins.append(entry.map { "\($0.template):\($0.line)" } ?? "none")
            offset += line.utf8.count + 1
        }
        return origins
    }

    private func origin(of needle: String, in output: String, trace: [MustacheRenderer.TraceEntry]) -> String? {
        guard let range = output.range(of: needle) else { return nil }
        let offset = output.utf8.distance(from: output.startIndex, to: range.lowerBound)
        return TemplateAttribution.entry(at: offset, in: trace).map { "\($0.template):\($0.line)" }
    }

    @Test func tracesPartialTextToThePartialsLine() throws {
        let partials = ["card": "<div>\n  <b>{{title}}</b>\n</div>\n"]
        let (output, trace) = try renderTracedWithGallery("Header\n  {{>card}}\nFooter {{year}}\n", partials: partials, context: record)
        #expect(output == "Header\n  <div>\n    <b>Kind of Blue</b>\n  </div>\nFooter 1959\n")
        // Indentation belongs to the partial line it starts.
        #expect(origins(of: output, trace: trace) == ["main:1", "card:1", "card:2", "card:3", "main:3"])
        #expect(origin(of: "<b>", in: output, trace: trace) == "card:2")
        #expect(origin(of: "Kind of Blue", in: output, trace: trace) == "card:2")
        #expect(origin(of: "</div>", in: output, trace: trace) == "card:3")
        #expect(origin(of: "1959", in: output, trace: trace) == "main:3")
    }

    @Test func tracesBlockOverridesToTheTemplateThatWroteThem() throws {
        let partials = ["layout": "<main>\n{{$body}}{{/body}}\n</main>\n"]
        let page = "{{<layout}}\n{{$body}}\n<p>{{title}}</p>\n{{/body}}\n{{/layout}}\n"
        let (output, trace) = try renderTracedWithGallery(page, partials: partials, context: record)
        #expect(output == "<main>\n<p>Kind of Blue</p>\n\n</main>\n")
        #expect(origins(of: output, trace: trace) == ["layout:1", "main:3", "layout:2", "layout:3"])
    }

    @Test func tracesLinesAfterAMultiLineComment() throws {
        let (output, trace) = try renderTracedWithGallery("a {{! note\nstill the note }}b\nc\n")
        #expect(output == "a b\nc\n")
        #expect(origin(of: "b", in: output, trace: trace) == "main:2")
        #expect(origin(of: "c", in: output, trace: trace) == "main:3")
    }

    @Test func emptyInterpolationsLeaveNoTraceEntry() throws {
        let (_, trace) = try renderTracedWithGallery("{{>empty}}x", partials: ["empty": "{{nowhere}}"])
        #expect(trace == [MustacheRenderer.TraceEntry(offset: 0, template: "main", line: 1)])
    }

    @Test func tracesTheBuiltInTemplatesPartials() throws {
        let templates = try TemplateSet.load(overridesIn: nil)
        let (bytes, trace) = templates.renderTraced("album", context: .object(MustacheFixtures.albumPage(tiles: 3)))
        let output = String(decoding: bytes, as: UTF8.self)
        let tileLine = try #require(templates.sources["partials/tile"]?.text.split(separator: "\n").firstIndex { $0.contains("<li class=\"tile") })
        #expect(origin(of: "<li class=\"tile", in: output, trace: trace) == "partials/tile:\(tileLine + 1)")
        #expect(origin(of: "<caption>", in: output, trace: trace) == "partials/details:2")
        #expect(origin(of: "<h1>", in: output, trace: trace) == "album:4")
        #expect(origin(of: "<footer", in: output, trace: trace)?.hasPrefix("base:") == true)
    }
}
