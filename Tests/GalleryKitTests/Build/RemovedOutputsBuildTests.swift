import Foundation
import Testing

@testable import GalleryKit

/// A page left in place links to a file the next build no longer makes: the build fails as a
/// clean build does, instead of publishing the broken link, and pages that cannot link to the
/// file are left alone.
@Suite struct RemovedOutputsBuildTests {
    /// A starter site with twelve albums (`album-1`…), each album page carrying two neighbours on
    /// each side, so most pages are left in place after one album changes.
    struct Site {
        let folder: URL
        var site: SiteFolder { SiteFolder(root: folder) }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appending(path: "removed-\(UUID().uuidString)", directoryHint: .isDirectory)
            _ = try StarterSite.write(into: folder)
            let settings = try String(contentsOf: folder.appending(path: "gallery.toml"), encoding: .utf8)
            #expect(settings.contains("window = 15"))
            try write(settings.replacingOccurrences(of: "window = 15", with: "window = 2"), to: "gallery.toml")
            try albums()
        }

        /// Writes the archive: album `n` has slug `slugs[n]` (default `album-n`) and the params given.
        func albums(slugs: [Int: String] = [:], params: [Int: String] = [:]) throws {
            let albums = (1...12).map { number in
                let param = params[number].map { #", "params": {"see": "\#($0)"}"# } ?? ""
                return #"{"title": "Title \#(number)", "artist": "Artist", "genre": "Pop", "year": 2000, "cover_url": "covers/best-of-bowie.svg", "slug": "\#(slugs[number] ?? "album-\(number)")"\#(param)}"#
            }
            try write(#"{"version": 1, "albums": [\#(albums.joined(separator: ",\n"))]}"#, to: "content/albums.json")
        }

        func write(_ text: String, to path: String) throws {
            let url = folder.appending(path: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }

        /// Puts `insert` at the end of the content of the built-in page template `name`.
        func extend(_ name: String, with insert: String) throws {
            let template = try #require(BuiltinResources.text(at: "templates/\(name).mustache"))
            #expect(template.contains("{{/content}}"), "\(name)")
            try write(template.replacingOccurrences(of: "{{/content}}", with: insert + "\n{{/content}}"), to: "templates/\(name).mustache")
        }

        func build(clean: Bool = false) async -> BuildState {
            await BuildPipeline().run(BuildOptions(site: site, clean: clean))
        }

        /// Every file of the output folder, by path.
        func output() throws -> [String: Data] {
            let root = folder.appending(path: "public")
            var files: [String: Data] = [:]
            for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)! where !url.hasDirectoryPath {
                files[String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))] = try Data(contentsOf: url)
            }
            return files
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// The build fails, reporting what a clean build reports, and leaves the output as it was.
    func expectFailsAsCleanBuild(_ site: Site, _ comment: Comment) async throws {
        let before = try site.output()
        let incremental = await site.build()
        #expect(!incremental.summary.succeeded, comment)
        let clean = await site.build(clean: true)
        #expect(!clean.summary.succeeded)
        #expect(incremental.diagnostics.map(\.description) == clean.diagnostics.map(\.description), comment)
        #expect(try site.output() == before, "the output folder is unchanged")
    }

    @Test func aPageInPlaceLinkingToAnAlbumThatMovedFails() async throws {
        let site = try Site()
        defer { site.remove() }
        try site.extend("album", with: #"{{#album.params.see}}<p><a href="{{album.params.see}}">see also</a></p>{{/album.params.see}}"#)
        try site.albums(params: [12: "../album-3/"])
        let first = await site.build()
        #expect(first.summary.succeeded, "\(first.diagnostics)")

        // Album 3 moves; album 12's page, far from it, is in place and links to its old address.
        try site.albums(slugs: [3: "album-3-moved"], params: [12: "../album-3/"])
        try await expectFailsAsCleanBuild(site, "a link to the album's old address")
        let failed = await site.build()
        #expect(failed.diagnostics.contains { $0.description.contains("albums/album-12/index.html") && $0.description.contains("../album-3/") }, "\(failed.diagnostics)")
        #expect(failed.rechecked == ["albums/album-12/index.html"], "only the page that names the old address is made again: \(failed.rechecked)")

        // Linked to its new address, the build goes through.
        try site.albums(slugs: [3: "album-3-moved"], params: [12: "../album-3-moved/"])
        let fixed = await site.build()
        #expect(fixed.summary.succeeded, "\(fixed.diagnostics)")
    }

    @Test func aStaticFileTakenAwayFailsThePagesThatLinkToItHoweverEscaped() async throws {
        let site = try Site()
        defer { site.remove() }
        try site.write("notes\n", to: "static/notes.txt")
        try site.write("kept\n", to: "static/kept.txt")
        // Each kind of page links to it in another way: as it is, by a character reference, and
        // in a style element split by a comment, which only a check of the page finds.
        try site.extend("album", with: #"<p><a href="/notes.txt">notes</a></p>"#)
        try site.extend("index", with: #"<p><a href="/not&#101;s.txt">notes</a></p>"#)
        try site.extend("404", with: #"<style>main{background:url(/not<!-- -->es.txt)}</style>"#)
        let first = await site.build()
        #expect(first.summary.succeeded, "\(first.diagnostics)")

        // A file no page names goes; the album pages, which name another plainly, stay in place.
        try FileManager.default.removeItem(at: site.folder.appending(path: "static/kept.txt"))
        let kept = await site.build()
        #expect(kept.summary.succeeded, "\(kept.diagnostics)")
        #expect(kept.rechecked == ["404.html", "index.html"], "only the pages with an escape, which might spell its name, are made again: \(kept.rechecked)")
        #expect(!FileManager.default.fileExists(atPath: site.folder.appending(path: "public/kept.txt").path))

        try FileManager.default.removeItem(at: site.folder.appending(path: "static/notes.txt"))
        try await expectFailsAsCleanBuild(site, "links to a static file taken away")
        let failed = await site.build()
        #expect(Set(failed.rechecked) == Set(first.manifest.entries.keys.filter { $0.hasSuffix(".html") }), "every page links to it: \(failed.rechecked)")
        #expect(FileManager.default.fileExists(atPath: site.folder.appending(path: "public/notes.txt").path), "the file stays until a build goes through")
    }

    @Test func anAlbumThatMovesWithTheBuiltInTemplatesMakesNoPageInPlaceAgain() async throws {
        let site = try Site()
        defer { site.remove() }
        let first = await site.build()
        #expect(first.summary.succeeded, "\(first.diagnostics)")
        try site.albums(slugs: [3: "album-3-moved"])
        let moved = await site.build()
        #expect(moved.summary.succeeded, "\(moved.diagnostics)")
        #expect(moved.rechecked.isEmpty, "only its neighbours show it, and they are made again anyway: \(moved.rechecked)")
        #expect(moved.summary.pagesUnchanged >= 6, "album pages 7 to 12 stay in place: \(moved.summary.pagesUnchanged)")
        let incremental = try site.output()
        let clean = await site.build(clean: true)
        #expect(clean.summary.succeeded)
        #expect(try site.output() == incremental, "the same site as a clean build")
    }
}
