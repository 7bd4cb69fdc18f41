import Foundation
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
        let script = try #require(html.range(of: "<script id=\"gallery-serve-reload\" src=\"\(PageDecorator.scriptPath)\"></script>"))
        let bodyEnd = try #require(html.range(of: "</body>"))
        #expect(script.upperBound < bodyEnd.lowerBound)
        #expect(html.components(separatedBy: "<script id=\"gallery-serve-reload\"").count == 2, "the script is added once")
        // Linked, not inline: a site whose policy refuses inline scripts still reloads.
        #expect(!html.contains(PageDecorator.livePath))
        #expect(PageDecorator.script.contains("\"\(PageDecorator.livePath)\""))
        #expect(!PageDecorator.script.contains("<script"))
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html><body><p>Albums</p>"))
        #expect(html.hasSuffix("</body></html>\n"))
        #expect(!html.contains(PageDecorator.overlayID + "\" role"))
    }

    @Test func appendsToAPageWithoutABody() {
        let bytes = PageDecorator.decorate(Array("plain".utf8))
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("plain<script"))
    }

    @Test func theOverlaySaysWhetherAGoodBuildIsShown() {
        let failure = [Diagnostic.error("album 3 has no title", path: "content/albums.json")]
        let unbuilt = decorated(failure)
        #expect(unbuilt.contains("<p>gallery serve: the site could not be built yet; it is shown here once a save fixes this.</p>"))
        #expect(!unbuilt.contains("<p>gallery serve: the last rebuild failed"))
        let built = String(decoding: PageDecorator.decorate(Array(page.utf8), build: "00ab", failure: failure), as: UTF8.self)
        #expect(built.contains("<p>gallery serve: the last rebuild failed; the browser shows the last good build.</p>"))
    }

    @Test func theOverlayEscapesTheDiagnostics() {
        let failure = [Diagnostic.error("album 3 is called <script>alert(1)</script> & more", path: "content/albums.json", at: SourcePosition(line: 4, column: 7))]
        let html = decorated(failure)
        #expect(html.contains("<div id=\"\(PageDecorator.overlayID)\""))
        #expect(html.contains("content/albums.json:4:7: error: album 3 is called &lt;script&gt;alert(1)&lt;/script&gt; &amp; more"))
        #expect(!html.contains("<script>alert(1)"))
    }

    @Test func theMessageCarriesTheBuildAndTheDiagnosticsAsJSONText() throws {
        let message = LiveReloadEvent(build: "00ab", failure: [.error("bad </script>\nline", path: "content/albums.json")]).message
        let object = try #require(try JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any])
        #expect(object["build"] as? String == "00ab")
        // One line per finding, as in the terminal: a line break in it is shown escaped.
        #expect(object["errors"] as? [String] == ["content/albums.json: error: bad </script>\\u{A}line"])
        // `<` is escaped: no markup in the payload, even as JSON text.
        #expect(!message.contains("</script>"))
        #expect(LiveReloadEvent(build: "00ab").message == "{\"build\":\"00ab\",\"errors\":null}")
        #expect(LiveReloadEvent(build: nil, failure: []).message == "{\"build\":null,\"errors\":[]}")
    }

    @Test func thePageNamesItsBuild() {
        let html = String(decoding: PageDecorator.decorate(Array(page.utf8), build: "00ab"), as: UTF8.self)
        #expect(html.contains("<script id=\"gallery-serve-reload\" src=\"\(PageDecorator.scriptPath)\" data-build=\"00ab\"></script>"))
        #expect(!decorated().contains("data-build"), "a page served before any good build")
        #expect(PageDecorator.script.contains("getAttribute(\"data-build\")"))
    }
}
