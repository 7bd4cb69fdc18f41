import Foundation
import Testing

/// A build that finds nothing changed since the last build without findings stops after loading
/// (the manifest's stamp), and anything the stamp watches sends the next build back to work.
@Suite struct UpToDateBuildTests {
    func site(_ count: Int) throws -> TemporaryFolder {
        try Fixture.site((0..<count).map { Fixture.album(String(format: "Title %02d", $0), "Artist") }, config: "[carousel]\nwindow = 2\nindex_page_size = 10\n")
    }

    /// Builds with `--log-format json` and returns the summary.
    func build(_ folder: TemporaryFolder, _ extra: [String] = [], binary: URL = GalleryBinary.url) async throws -> [String: Any] {
        let run = try await GalleryBinary.run(["build", "--log-format", "json"] + extra, in: folder.url, binary: binary)
        let last = try #require(run.stdout.split(separator: "\n").last, "no output: \(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(summary["event"] as? String == "summary")
        return summary
    }

    /// The summary without what differs between two builds of the same site by design.
    func comparable(_ summary: [String: Any]) -> NSDictionary {
        var summary = summary
        for key in ["up_to_date", "timings", "seconds"] { summary[key] = nil }
        return summary as NSDictionary
    }

    func isUpToDate(_ summary: [String: Any]) -> Bool? { summary["up_to_date"] as? Bool }

    func touch(_ folder: TemporaryFolder, _ path: String) throws {
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: folder.url.appending(path: path).path)
    }

    @Test func anUnchangedSiteStopsAfterLoadingWithTheSummaryOfAFullNoOp() async throws {
        let folder = try site(12)
        #expect(isUpToDate(try await build(folder)) == false)
        let quick = try await build(folder)
        #expect(isUpToDate(quick) == true)
        #expect((quick["timings"] as? [String: Any]).map { Array($0.keys) } == ["load"])
        // A touched cover has a new change time: the full no-op runs, writes nothing, and says
        // exactly what the quick one said.
        try touch(folder, "content/covers/a.svg")
        let full = try await build(folder)
        #expect(isUpToDate(full) == false)
        #expect((full["files"] as? [String: Any])?["written"] as? Int == 0)
        #expect(comparable(full) == comparable(quick))
        #expect(isUpToDate(try await build(folder)) == true, "the full no-op records a stamp of its own")
        let text = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(text.stderr.hasPrefix("[1/7] load\nbuilt 12 albums: 0 files written, \(folder.files(under: "public").count) unchanged (nothing changed since the last build) in "), "\(text.stderr)")
    }

    /// An asset whose file name holds a tab once made the manifest unreadable, so every build
    /// wrote every file again and never stopped at the stamp.
    @Test func anAssetWithATabInItsNameStillLeavesARebuildWithNothingToDo() async throws {
        let folder = try site(4)
        try folder.write("x", to: "assets/notes\tdraft.txt")
        #expect(isUpToDate(try await build(folder)) == false)
        try touch(folder, "content/covers/a.svg")
        let full = try await build(folder)
        #expect((full["files"] as? [String: Any])?["written"] as? Int == 0)
        #expect(isUpToDate(try await build(folder)) == true)
        #expect(try folder.read("public/assets/notes\tdraft.txt") == "x")
    }

    @Test func everyInputTheStampWatchesSendsTheBuildBackToWork() async throws {
        let folder = try site(8)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let index = { try folder.read("public/index.html") }
        let before = try index()
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let notFound = try String(contentsOf: package.appending(path: "templates/404.mustache"), encoding: .utf8)
        let changes: [(name: String, change: () async throws -> Void, extra: [String], shows: () throws -> Bool)] = [
            ("gallery.toml", { try folder.write("title = \"Renamed Site\"\n[carousel]\nwindow = 2\nindex_page_size = 10\n", to: "gallery.toml") }, [],
             { try index().contains("Renamed Site") }),
            ("the archive", {
                let edit = try await GalleryBinary.run(["edit", "3", "--title", "Edited"], in: folder.url)
                #expect(edit.status == 0)
            }, [],
             { try index().contains("Edited") }),
            ("a template", { try folder.write(notFound.replacingOccurrences(of: "{{text.not_found_message}}", with: "Lost here."), to: "templates/404.mustache") }, [],
             { try folder.read("public/404.html").contains("Lost here.") }),
            ("an asset", { try folder.write("hello", to: "assets/extra.txt") }, [],
             { folder.exists("public/assets/extra.txt") }),
            ("a cover, same size", { try folder.write(Fixture.cover.replacingOccurrences(of: "#c33", with: "#3c3"), to: "content/covers/a.svg") }, [],
             { try index() != before }),
            ("a deleted page", { try FileManager.default.removeItem(at: folder.url.appending(path: "public/albums/artist-title-05/index.html")) }, [],
             { folder.exists("public/albums/artist-title-05/index.html") }),
            ("a page of another size", { try folder.write("tampered", to: "public/carousel.svg") }, [],
             { try folder.read("public/carousel.svg").contains("<svg") }),
            ("--base-url", {}, ["--base-url", "https://example.org/sub/"],
             { try folder.read("public/sitemap.xml").contains("https://example.org/sub/") }),
        ]
        for (name, change, extra, shows) in changes {
            try await change()
            let summary = try await build(folder, extra)
            #expect(summary["succeeded"] as? Bool == true, "\(name)")
            #expect(isUpToDate(summary) == false, "\(name)")
            #expect(try shows(), "\(name)")
            #expect(isUpToDate(try await build(folder, extra)) == true, "\(name): the next build is quick again")
        }
    }

    /// A cover that is a symbolic link pointed at another file, and a covers folder that is a
    /// link switched to another set (a way to swap a catalogue's artwork), changed no stamp:
    /// the build said "nothing changed" and left every page with the old covers.
    @Test func aCoverLinkPointedElsewhereSendsTheBuildBackToWork() async throws {
        let folder = try site(3)
        let manager = FileManager.default
        let covers = folder.url.appending(path: "content/covers")
        try folder.write(Fixture.cover.replacingOccurrences(of: "#c33", with: "#3c3"), to: "content/green.svg")
        try folder.write(Fixture.cover.replacingOccurrences(of: "#c33", with: "#33c"), to: "content/blue.svg")
        try manager.removeItem(at: covers.appending(path: "a.svg"))
        try manager.createSymbolicLink(atPath: covers.appending(path: "a.svg").path, withDestinationPath: "../green.svg")
        #expect(try await build(folder)["succeeded"] as? Bool == true)
        let green = try folder.read("public/index.html")
        try manager.removeItem(at: covers.appending(path: "a.svg"))
        try manager.createSymbolicLink(atPath: covers.appending(path: "a.svg").path, withDestinationPath: "../blue.svg")
        let relinked = try await build(folder)
        #expect(isUpToDate(relinked) == false, "a cover's link pointed elsewhere")
        #expect(try folder.read("public/index.html") != green)
        #expect(isUpToDate(try await build(folder)) == true)

        // The covers folder as a link, switched to another set.
        try manager.moveItem(at: covers, to: folder.url.appending(path: "content/set1"))
        try manager.copyItem(at: folder.url.appending(path: "content/set1"), to: folder.url.appending(path: "content/set2"))
        try manager.removeItem(at: folder.url.appending(path: "content/set2/a.svg"))
        try folder.write(Fixture.cover.replacingOccurrences(of: "#c33", with: "#ccc"), to: "content/set2/a.svg")
        try manager.createSymbolicLink(atPath: covers.path, withDestinationPath: "set1")
        #expect(try await build(folder)["succeeded"] as? Bool == true)
        #expect(isUpToDate(try await build(folder)) == true)
        let first = try folder.read("public/index.html")
        try manager.removeItem(at: covers)
        try manager.createSymbolicLink(atPath: covers.path, withDestinationPath: "set2")
        let switched = try await build(folder)
        #expect(isUpToDate(switched) == false, "the covers folder's link switched")
        #expect(try folder.read("public/index.html") != first)
    }

    @Test func anotherGalleryExecutableNeverStopsAtThisOnesStamp() async throws {
        // A rebuilt gallery may render differently under the same version string.
        let folder = try site(4)
        #expect(isUpToDate(try await build(folder)) == false)
        #expect(isUpToDate(try await build(folder)) == true)
        let other = folder.url.appending(path: "bin/gallery")
        try FileManager.default.createDirectory(at: other.deletingLastPathComponent(), withIntermediateDirectories: true)
        try GalleryBinary.copy(to: other)
        let rebuilt = try await build(folder, binary: other)
        #expect(isUpToDate(rebuilt) == false)
        #expect((rebuilt["files"] as? [String: Any])?["written"] as? Int == 0)
        #expect(isUpToDate(try await build(folder, binary: other)) == true)
        #expect(isUpToDate(try await build(folder)) == false)
    }

    @Test func cleanRefreshAndWarningsAlwaysRunInFull() async throws {
        let folder = try Fixture.site([Fixture.album("A", "B"), Fixture.album("C", "D", cover: "covers/missing.svg")])
        for _ in 0..<2 {
            let summary = try await build(folder)
            #expect(isUpToDate(summary) == false)
            #expect(summary["warnings"] as? Int == 1, "the warning is shown every time")
        }
        try folder.write(Fixture.cover, to: "content/covers/missing.svg")
        #expect(try await build(folder)["warnings"] as? Int == 0)
        #expect(isUpToDate(try await build(folder)) == true)
        #expect(isUpToDate(try await build(folder, ["--clean"])) == false)
        #expect(isUpToDate(try await build(folder, ["--refresh"])) == false)
        #expect(isUpToDate(try await build(folder, ["--offline"])) == true)
    }

    @Test func aBuildThatFailsWhileWritingLeavesNoManifestToTrust() async throws {
        // The write fails at index.html (a folder is in its way), after the pages of album 6's
        // window have their new title. Once the archive is back as it was, every page must be
        // compared again: a manifest of the first build would call the new pages in place.
        let folder = try site(8)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let archive = try folder.read("content/albums.json")
        #expect(try await GalleryBinary.run(["edit", "6", "--title", "Title X5", "--slug", "artist-title-05"], in: folder.url).status == 0)
        try FileManager.default.removeItem(at: folder.url.appending(path: "public/index.html"))
        try folder.write("in the way", to: "public/index.html/blocker")
        let failed = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(failed.status != 0)
        #expect(try folder.read("public/albums/artist-title-05/index.html").contains("Title X5"), "the failure came after the album pages")
        try folder.write(archive, to: "content/albums.json")
        try FileManager.default.removeItem(at: folder.url.appending(path: "public/index.html"))
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        for page in folder.files(under: "public").filter({ $0.hasSuffix(".html") }) {
            #expect(try !folder.read("public/" + page).contains("Title X5"), "\(page)")
        }
    }
}
