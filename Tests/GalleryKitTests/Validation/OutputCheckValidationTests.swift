import Foundation
import Testing
@testable import GalleryKit

@Suite struct OutputCheckValidationTests {
    typealias Fixtures = ValidationFixtures

    /// A real temporary output folder, removed afterwards.
    final class TemporarySite {
        let root: URL

        init() throws {
            root = FileManager.default.temporaryDirectory.appending(path: "gallery-check-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.removeItem(at: root)
        }

        func write(_ relative: String, _ bytes: [UInt8]) throws {
            let url = root.appending(path: relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }

        func link(_ relative: String, to destination: String) throws {
            try FileManager.default.createSymbolicLink(atPath: root.appending(path: relative).path, withDestinationPath: destination)
        }
    }

    @Test func reportsTheBrokenPageAndTheOutsideSymlinkAndNothingElse() throws {
        let site = try TemporarySite()
        try site.write("index.html", Fixtures.page(["<p><a href=\"albums/a/\">Best of Bowie</a> <a href=\"inside.html\">copy</a></p>"], root: ""))
        try site.write("albums/a/index.html", Fixtures.page(Fixtures.validBody))
        try site.write("albums/b/index.html", Fixtures.page(["<p>", "<a href=\"../c/\">gone</a></p>"]))
        try site.write("assets/gallery.3fa2b1c0.css", Array("body { margin: 0 }".utf8))
        try site.write("assets/gallery.js", Array("// script".utf8))
        try site.write("covers/a.svg", Array("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\"/>".utf8))
        try site.write("covers/b.svg", Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8))
        try site.write("covers/b@2x.jpg", [0xFF, 0xD8, 0xFF])
        try site.write("carousel.svg", Fixtures.carousel())
        try site.write("albums.json", Array("{\"albums\": [{\"title\": \"Best of Bowie\"}]}".utf8))
        try site.write("sitemap.xml", Array("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"/>".utf8))
        try site.link("inside.html", to: "index.html")
        let outside = FileManager.default.temporaryDirectory.appending(path: "gallery-outside-\(UUID().uuidString).txt")
        try Data("secret".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        try site.link("leak.txt", to: outside.path)

        let diagnostics = try OutputChecker.check(outputFolder: site.root, displayPrefix: "public")

        #expect(diagnostics.map(\.description) == [
            "public/albums/b/index.html:10:1: error: broken link to '../c/' (no such file in the output: albums/c/index.html)",
            "public/leak.txt: error: symbolic link points outside the output folder (to '\(outside.path)'); the site would not serve it",
        ])
    }

    @Test func checksXMLAndJSONAndSortsByPathThenPosition() throws {
        let site = try TemporarySite()
        try site.write("b.html", Fixtures.page(["<p id=\"x\"><img src=\"a.png\"/></p>", "<p id=\"x\"/>"], root: ""))
        try site.write("a.json", Array("{\"albums\": [\n  {\"title\": }\n]}".utf8))
        try site.write("sitemap.xml", Array("<urlset/>\n<urlset/>".utf8))
        try site.write("assets/gallery.3fa2b1c0.css", [])

        let diagnostics = try OutputChecker.check(outputFolder: site.root, displayPrefix: "out/")

        #expect(diagnostics.map(\.path) == ["out/a.json", "out/b.html", "out/b.html", "out/b.html", "out/sitemap.xml"])
        // A JSON file's fault has its line and column, as every other finding (Foundation's
        // parser said "around character 33619").
        #expect(diagnostics.map(\.at) == ["2:13", "9:11", "9:11", "10:1", "2:1"])
        #expect(diagnostics[0].message.hasPrefix("is not valid JSON"))
        #expect(diagnostics[1].message.hasPrefix("<img> has no alt attribute"))
        #expect(diagnostics[2].message == "broken link to 'a.png' (no such file in the output: a.png)")
        #expect(diagnostics[3].message == "duplicate id 'x' (first used on line 9)")
        #expect(diagnostics[4].message == "Extra content at the end of the document")
    }

    @Test func aMissingFolderIsAnErrorNotAnEmptyReport() {
        #expect(throws: OutputChecker.CheckError.self) {
            try OutputChecker.check(outputFolder: URL(fileURLWithPath: "/nonexistent/public"))
        }
    }
}
