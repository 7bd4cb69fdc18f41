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

    @Test func aMisspeltBlockIsAWarningAndWithStrictAnError() async throws {
        let site = try Fixture.site([Fixture.album("A", "B"), Fixture.album("C", "D")])
        try site.write(try builtin("album", replacing: "content}}", with: "contnet}}"), to: "templates/album.mustache")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("templates/album.mustache:3:1: warning: block 'contnet' is not defined by its parent 'base', so what it holds is shown nowhere; did you mean 'content'?"), "\(run.stderr)")
        let strict = try await GalleryBinary.run(["build", "--strict", "--output", "strict-out"], in: site.url)
        #expect(strict.status != 0)
        #expect(strict.stderr.contains("block 'contnet' is not defined"), "\(strict.stderr)")
        #expect(!site.exists("strict-out"))
    }

    @Test func aBlockRenamedInBaseIsOneWarningForEveryPageThatLosesIt() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write(try builtin("base", replacing: "{{$content}}{{/content}}", with: "{{$inhalt}}{{/inhalt}}"), to: "templates/base.mustache")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings == [
            "templates/base.mustache: warning: 'base' has no block 'content', which the built-in templates '404', 'album' and 'index' fill, so what they put there is shown nowhere; add {{$content}}{{/content}} where it belongs, or give that name to the block meant for it ('base' has 'head', 'inhalt' and 'title')",
        ], "\(run.stderr)")
        let strict = try await GalleryBinary.run(["build", "--strict", "--output", "strict-out"], in: site.url)
        #expect(strict.status != 0)
        #expect(!site.exists("strict-out"))
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
