import GalleryKit
import GalleryPreview
import Testing

@Suite struct PageDecoratorTests {
    let page = "<!DOCTYPE html>\n<html><body><p>Albums</p></body></html>\n"

    func decorated(_ failure: [Diagnostic]? = nil) -> String {
        String(decoding: PageDecorator.decorate(Array(page.utf8), failure: failure), as: UTF8.self)
    }

    @Test func addsTheReloadScriptBeforeTheBodyEnds() throws {
        let html = decorated()
        let script = try #require(html.range(of: "new EventSource(\"\(PageDecorator.eventsPath)\")"))
        let bodyEnd = try #require(html.range(of: "</body>"))
        #expect(script.upperBound < bodyEnd.lowerBound)
        #expect(html.components(separatedBy: "<script id=\"gallery-serve-reload\">").count == 2, "the script is added once")
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html><body><p>Albums</p>"))
        #expect(html.hasSuffix("</body></html>\n"))
        #expect(!html.contains(PageDecorator.overlayID + "\" role"))
    }

    @Test func appendsToAPageWithoutABody() {
        let bytes = PageDecorator.decorate(Array("plain".utf8))
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("plain<script"))
    }

    @Test func theOverlayEscapesTheDiagnostics() {
        let failure = [Diagnostic.error("album 3 is called <script>alert(1)</script> & more", path: "content/albums.json", at: SourcePosition(line: 4, column: 7))]
        let html = decorated(failure)
        #expect(html.contains("<div id=\"\(PageDecorator.overlayID)\""))
        #expect(html.contains("content/albums.json:4:7: error: album 3 is called &lt;script&gt;alert(1)&lt;/script&gt; &amp; more"))
        #expect(!html.contains("<script>alert(1)"))
    }

    @Test func theErrorEventCarriesTheDiagnosticsAsJSONText() {
        let event = LiveReloadEvent.failure([.error("bad </script>\nline", path: "content/albums.json")]).serverSentEvent
        #expect(event.hasPrefix("event: error\ndata: [\""))
        #expect(event.hasSuffix("]\n\n"))
        // One data line: the newline is escaped, and so is `<` (no markup in the payload).
        #expect(event.split(separator: "\n").count == 2)
        #expect(!event.contains("</script>"))
        #expect(LiveReloadEvent.reload.serverSentEvent == "event: reload\ndata: reload\n\n")
    }
}
