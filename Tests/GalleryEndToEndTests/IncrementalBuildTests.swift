import Foundation
import Testing

/// Incremental and deterministic builds, judged by what actually happens to the files: a file
/// that is rewritten gets a new inode (gallery writes by rename), one left alone keeps its own.
@Suite struct IncrementalBuildTests {
    /// Every output file and its inode.
    func inodes(_ folder: TemporaryFolder, _ path: String = "public") throws -> [String: UInt64] {
        var result: [String: UInt64] = [:]
        for file in folder.files(under: path) {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.url.appending(path: "\(path)/\(file)").path)
            result[file] = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
        }
        return result
    }

    func changed(_ before: [String: UInt64], _ after: [String: UInt64]) -> Set<String> {
        Set(after.keys.filter { before[$0] != after[$0] })
    }

    func site(_ count: Int) throws -> TemporaryFolder {
        try Fixture.site((0..<count).map { Fixture.album(String(format: "Title %02d", $0), "Artist") }, config: "[carousel]\nwindow = 2\nindex_page_size = 10\n")
    }

    @Test func aSecondBuildWritesNothing() throws {
        let folder = try site(30)
        #expect(try GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let before = try inodes(folder)
        let run = try GalleryBinary.run(["build"], in: folder.url)
        #expect(run.stderr.contains("built 30 albums: 0 files written, \(before.count) unchanged"))
        #expect(try inodes(folder) == before)
    }

    @Test func editingOneAlbumRewritesOnlyWhatShowsIt() throws {
        let folder = try site(30)
        #expect(try GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let before = try inodes(folder)
        // A new title for album 15 (index 14), keeping its slug: the title is on its own page, in
        // its tile on the pages of its window (two neighbours each side) and index page 2, and in
        // the data file and the SVG strip.
        let edit = try GalleryBinary.run(["edit", "15", "--title", "Renamed", "--slug", "artist-title-14"], in: folder.url)
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(try GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let window = (12...16).map { String(format: "albums/artist-title-%02d/index.html", $0) }
        let afterTitle = try inodes(folder)
        #expect(changed(before, afterTitle) == Set(window + ["page/2/index.html", "albums.json", "carousel.svg"]))
        // The genre shows only in the album's own details table and the data file.
        #expect(try GalleryBinary.run(["edit", "artist-title-14", "--genre", "Jazz"], in: folder.url).status == 0)
        #expect(try GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        #expect(changed(afterTitle, try inodes(folder)) == ["albums/artist-title-14/index.html", "albums.json"])
    }

    @Test func deletingAnAlbumRemovesItsPage() throws {
        let folder = try site(12)
        #expect(try GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        #expect(folder.exists("public/albums/artist-title-05/index.html"))
        #expect(try GalleryBinary.run(["delete", "artist-title-05"], in: folder.url).status == 0)
        let run = try GalleryBinary.run(["build"], in: folder.url)
        #expect(run.stderr.contains("1 removed"))
        #expect(!folder.exists("public/albums/artist-title-05"))
        #expect(folder.files(under: "public/albums").count == 11)
        #expect(try GalleryBinary.run(["check"], in: folder.url).status == 0)
    }

    @Test func aDeletedOutputIsWrittenAgainAndCleanRewritesEverything() throws {
        let folder = try site(5)
        #expect(try GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        try FileManager.default.removeItem(at: folder.url.appending(path: "public/albums/artist-title-02/index.html"))
        try folder.write("tampered", to: "public/albums.json")
        let before = try inodes(folder)
        #expect(try GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        #expect(changed(before, try inodes(folder)) == ["albums/artist-title-02/index.html", "albums.json"])
        let again = try inodes(folder)
        let clean = try GalleryBinary.run(["build", "--clean"], in: folder.url)
        #expect(clean.status == 0)
        #expect(changed(again, try inodes(folder)) == Set(again.keys))
        #expect(clean.stderr.contains("\(again.count) files written, 0 unchanged"))
    }

    @Test func cleanBuildsOfTheSameInputAreByteIdentical() throws {
        let albums = (0..<40).map { Fixture.album("Título \($0) & <b>", "Ärtist \($0 % 7)") }
        let folder = try Fixture.site(albums, config: "[carousel]\nindex_page_size = 15\n")
        #expect(try GalleryBinary.run(["build", "-q", "--output", "one"], in: folder.url).status == 0)
        #expect(try GalleryBinary.run(["build", "-q", "--clean", "--output", "two"], in: folder.url).status == 0)
        let one = folder.files(under: "one")
        #expect(one == folder.files(under: "two"))
        #expect(one.count > 40)
        for path in one {
            #expect(try Data(contentsOf: folder.url.appending(path: "one/\(path)")) == Data(contentsOf: folder.url.appending(path: "two/\(path)")), "\(path) differs")
        }
    }
}
