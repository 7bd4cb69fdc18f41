import Foundation
import Testing
@testable import GalleryKit

/// Throughput of page validation on one core, printed, never asserted. Run by hand:
/// `GALLERY_BENCHMARK=1 swift test -c release -Xswiftc -enable-testing --filter ValidationBenchmark`
@Suite(.enabled(if: ProcessInfo.processInfo.environment["GALLERY_BENCHMARK"] != nil))
struct ValidationBenchmarkTests {
    /// An album page as the site will have it: 10 KB, a strip of 31 tiles, a details table.
    static func outputs(albums: Int) -> Set<String> {
        var outputs: Set<String> = ["index.html", "404.html", "assets/gallery.3fa2b1c0.css", "assets/gallery.5e1d2c3b.js", "carousel.svg"]
        for album in 0..<albums {
            outputs.insert("albums/artist-\(album)-title-of-album-\(album)/index.html")
            outputs.insert("covers/\(String(album * 7919, radix: 16)).jpg")
        }
        return outputs
    }

    static func albumPage(_ current: Int) -> (bytes: [UInt8], path: String) {
        let slug = { (album: Int) in "artist-\(album)-title-of-album-\(album)" }
        var body = [
            "<header class=\"site\"><a href=\"../../\" class=\"home\">My Albums</a><nav><a href=\"#details\">Details</a></nav></header>",
            "<main id=\"main\">",
            "<h1 id=\"album-title\">Title of album \(current)</h1>",
            "<ul class=\"strip\" aria-label=\"Albums\" data-current=\"\(current)\">",
        ]
        for tile in max(0, current - 15)..<(max(0, current - 15) + 31) {
            let cover = String(tile * 7919, radix: 16)
            body.append(
                "<li class=\"tile\" style=\"left: \(110 + tile * 120)px\"><a href=\"../\(slug(tile))/\" aria-label=\"Title of album \(tile) by Artist \(tile)\""
                    + (tile == current ? " aria-current=\"page\"" : "")
                    + "><img class=\"tile-image\" src=\"../../covers/\(cover).jpg\" alt=\"Title of album \(tile)\" width=\"100\" height=\"100\" loading=\"lazy\"/></a></li>")
        }
        body += [
            "</ul>",
            "<table id=\"details\"><caption>Title of album \(current)</caption>",
            "<tr><th scope=\"row\">Artist</th><td>Artist \(current)</td></tr>",
            "<tr><th scope=\"row\">Album</th><td>Title of album \(current)</td></tr>",
            "<tr><th scope=\"row\">Genre</th><td>Pop &amp; Rock</td></tr>",
            "<tr><th scope=\"row\">Year</th><td>1981</td></tr>",
            "</table>",
            "<section id=\"notes\"><h2>Notes</h2><p>" + String(repeating: "Liner notes, credits and a short history of the record. ", count: 20) + "</p></section>",
            "</main>",
            "<footer><p>Made with gallery. <a href=\"https://example.com/\">Source</a></p></footer>",
            "<script src=\"../../assets/gallery.5e1d2c3b.js\" defer=\"defer\"></script>",
        ]
        let bytes = ValidationFixtures.page(body).map { $0 }
        return (bytes, "albums/\(slug(current))/index.html")
    }

    @Test func pagesPerSecondOnOneCore() {
        let pages = (0..<100).map { Self.albumPage(100 + $0 * 97) }
        let validator = PageValidator(outputPaths: Self.outputs(albums: 10_000))
        #expect(validator.validateXHTML(pages[0].bytes, path: pages[0].path) == [])
        let rounds = Int(ProcessInfo.processInfo.environment["GALLERY_BENCHMARK_ROUNDS"] ?? "") ?? 30
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for _ in 0..<rounds {
                for page in pages where !validator.validateXHTML(page.bytes, path: page.path).isEmpty {
                    Issue.record("benchmark page is not valid")
                }
            }
        }
        let parsing = clock.measure {
            for _ in 0..<rounds {
                for page in pages where GalleryKit.XMLDocument.parse(page.bytes).document == nil {
                    Issue.record("benchmark page is not well-formed")
                }
            }
        }
        let count = Double(rounds * pages.count)
        for (label, duration) in [("validateXHTML", elapsed), ("libxml2 parse only", parsing)] {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            print(String(format: "%@: %.0f pages/s on one core (%d-byte pages, %.1f µs each)",
                         label, count / seconds, pages[0].bytes.count, seconds / count * 1e6))
        }
    }
}
