import Foundation
import GalleryKit
import Testing

/// Slips a web designer makes when customising templates, as `gallery build` tells them.
@Suite struct TemplateMistakeTests {
    /// The built-in template `name` with every `old` replaced by `new`.
    func builtin(_ name: String, replacing old: String, with new: String) throws -> String {
        let text = try #require(BuiltinResources.text(at: "templates/\(name).mustache"))
        #expect(text.contains(old))
        return text.replacingOccurrences(of: old, with: new)
    }

    @Test func aTagOneBraceShortIsToldAsNotClosedOnOneLine() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        let album = try builtin("album", replacing: "{{album.artist}}</span></span></h1>", with: "{{album.artist}</span></span></h1>")
        try site.write(album, to: "templates/album.mustache")
        let line = try #require(album.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("{{album.artist}<") })
        let text = album.split(separator: "\n", omittingEmptySubsequences: false)[line]
        let column = text.distance(from: text.startIndex, to: try #require(text.range(of: "{{album.artist}<")).lowerBound) + 1
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        let errors = run.stderr.split(separator: "\n").filter { $0.contains("error:") }
        #expect(errors.first == "templates/album.mustache:\(line + 1):\(column): error: template 'album' does not parse: the tag '{{album.artist}' is not closed: it needs '}}'", "\(run.stderr)")
        #expect(!run.stderr.contains("</span>"), "\(run.stderr)")
        #expect(!site.exists("public"))
    }
}
