import Foundation
import Synchronization
import Testing

@testable import GalleryKit

/// Incremental and deterministic builds, judged by what actually happens to the files: a file
/// that is rewritten gets a new inode (gallery writes by rename), one left alone keeps its own.
@Suite struct IncrementalBuildTests {
    func site(_ count: Int) throws -> TemporaryFolder {
        try Fixture.site((0..<count).map { Fixture.album(String(format: "Title %02d", $0), "Artist") }, config: "[carousel]\nwindow = 2\nindex_page_size = 10\n")
    }

    @Test func aSecondBuildWritesNothing() async throws {
        let folder = try site(30)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let before = try folder.inodes()
        let run = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(run.stderr.contains("built 30 albums: 0 files written, \(before.count) unchanged"))
        #expect(try folder.inodes() == before)
    }

    @Test func editingOneAlbumRewritesOnlyWhatShowsIt() async throws {
        let folder = try site(30)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let before = try folder.inodes()
        // A new title for album 15 (index 14), keeping its slug: the title is on its own page, in
        // its tile on the pages of its window (two neighbours each side) and index page 2, and in
        // the data file and the SVG strip.
        let edit = try await GalleryBinary.run(["edit", "15", "--title", "Renamed", "--slug", "artist-title-14"], in: folder.url)
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let window = (12...16).map { String(format: "albums/artist-title-%02d/index.html", $0) }
        let afterTitle = try folder.inodes()
        #expect(TemporaryFolder.changed(before, afterTitle) == Set(window + ["page/2/index.html", "albums.json", "data/albums-0.json", "carousel.svg"]))
        // The genre shows only in the album's own details table and the data files.
        #expect(try await GalleryBinary.run(["edit", "artist-title-14", "--genre", "Jazz"], in: folder.url).status == 0)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        #expect(TemporaryFolder.changed(afterTitle, try folder.inodes()) == ["albums/artist-title-14/index.html", "albums.json", "data/albums-0.json"])
        // The edit patched the lines of the previous manifest: they are those a clean build writes.
        let builds = folder.url.appending(path: ".gallery-cache/builds")
        let manifestName = try #require(try FileManager.default.contentsOfDirectory(atPath: builds.path).first { $0.hasSuffix(".manifest") })
        let patched = try Data(contentsOf: builds.appending(path: manifestName))
        #expect(try await GalleryBinary.run(["build", "-q", "--clean"], in: folder.url).status == 0)
        #expect(try Data(contentsOf: builds.appending(path: manifestName)) == patched)
    }

    @Test func filesMadeFromEveryAlbumFollowTheSettingsTheyShow() async throws {
        // The sitemap, the data files and the SVG strip are skipped by their keys in a no-op
        // build; a new base URL (only the sitemap and canonical links show it) must still reach them.
        let folder = try site(12)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let before = try folder.inodes()
        #expect(try await GalleryBinary.run(["build", "-q", "--base-url", "https://example.org/sub/"], in: folder.url).status == 0)
        let sitemap = try String(contentsOf: folder.url.appending(path: "public/sitemap.xml"), encoding: .utf8)
        #expect(sitemap.contains("https://example.org/sub/albums/artist-title-03/"))
        let rewritten = TemporaryFolder.changed(before, try folder.inodes())
        #expect(rewritten.contains("sitemap.xml"))
        #expect(!rewritten.contains("carousel.svg") && !rewritten.contains("data/albums-0.json"))
    }

    @Test func deletingAnAlbumRemovesItsPage() async throws {
        let folder = try site(12)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        #expect(folder.exists("public/albums/artist-title-05/index.html"))
        #expect(try await GalleryBinary.run(["delete", "artist-title-05"], in: folder.url).status == 0)
        let run = try await GalleryBinary.run(["build", "--log-format", "json"], in: folder.url)
        let summary = try #require(run.stdout.split(separator: "\n").last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect((summary["pages"] as? [String: Int])?["removed"] == 1, "\(summary)")
        #expect(!folder.exists("public/albums/artist-title-05"))
        #expect(folder.files(under: "public/albums").count == 11)
        #expect(try await GalleryBinary.run(["check"], in: folder.url).status == 0)
        // The page is named, as links to it break: a title changed by hand moved it in silence.
        // Deleted, not renamed: no advice on keeping an address.
        #expect(run.stderr.contains("public: note: removed the album page albums/artist-title-05/, as no album has its address any more; links to it now find the 404 page\n"), "\(run.stderr)")
        #expect(summary["warnings"] as? Int == 0)
    }

    /// A gone album's folder that lost its page already (a build killed while it moved files in
    /// makes every folder first) is removed all the same, and no page is said to be removed: it
    /// stayed for good, through --clean and --clean-destination, and nginx answered 403 there.
    @Test func aGoneAlbumsFolderWithoutItsPageIsRemoved() async throws {
        let folder = try site(12)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        try FileManager.default.removeItem(at: folder.url.appending(path: "public/albums/artist-title-05/index.html"))
        #expect(try await GalleryBinary.run(["delete", "artist-title-05"], in: folder.url).status == 0)
        let run = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!folder.exists("public/albums/artist-title-05"))
        #expect(!run.stderr.contains("removed the album page"), "\(run.stderr)")
    }

    /// A site folder moved or renamed with its cache (a CI workspace at another path) keeps its
    /// build record: it lost it, rewrote every file, and left a deleted album's page published
    /// with a warning.
    @Test func aMovedSiteFolderKeepsItsRecord() async throws {
        let scratch = try TemporaryFolder()
        let original = try site(12), control = try site(12)
        let first = scratch.url.appending(path: "workspace")
        try FileManager.default.moveItem(at: original.url, to: first)
        for folder in [first, control.url] {
            #expect(try await GalleryBinary.run(["build", "-q"], in: folder).status == 0)
        }
        let moved = scratch.url.appending(path: "workspace@2")
        try FileManager.default.moveItem(at: first, to: moved)
        // The moved site does what one left in place does: no more.
        var summaries: [[String: Any]] = []
        for folder in [moved, control.url] {
            #expect(try await GalleryBinary.run(["delete", "artist-title-05"], in: folder).status == 0)
            let run = try await GalleryBinary.run(["build", "--log-format", "json"], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            summaries.append(try #require(run.stdout.split(separator: "\n").last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }))
        }
        #expect(summaries[0]["warnings"] as? Int == 0, "\(summaries[0])")
        #expect(summaries[0]["pages"] as? [String: Int] == summaries[1]["pages"] as? [String: Int], "\(summaries)")
        #expect((summaries[0]["pages"] as? [String: Int])?["removed"] == 1, "\(summaries[0])")
        #expect(!FileManager.default.fileExists(atPath: moved.appending(path: "public/albums/artist-title-05").path))
    }

    /// A title changed by hand moves the album's page: the note names the album and the command
    /// that gives it back its old address, rather than `gallery edit NUMBER --slug OLD`.
    @Test func aRenamedAlbumsNoteNamesTheCommandThatKeepsItsAddress() async throws {
        let folder = try site(12)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        var albums = (0..<12).map { Fixture.album(String(format: "Title %02d", $0), "Artist") }
        albums[5] = Fixture.album("Retitled", "Artist")
        try folder.write(Fixture.archive(albums), to: "content/albums.json")
        let run = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("public: note: removed the album page albums/artist-title-05/, as no album has its address any more; links to it now find the 404 page (album 6 moved to albums/artist-retitled/ with its new title or artist; `gallery edit 6 --slug artist-title-05` gives it back its old address)\n"), "\(run.stderr)")
        // A slug of its own moves it too (`gallery edit 6 --slug …`), and the note says so: it
        // gave the advice for any album instead.
        albums[5] = Fixture.album("Retitled", "Artist", slug: "own-slug")
        try folder.write(Fixture.archive(albums), to: "content/albums.json")
        let slugged = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(slugged.stderr.contains("(album 6 moved to albums/own-slug/ with its new slug; `gallery edit 6 --slug artist-retitled` gives it back its old address)\n"), "\(slugged.stderr)")
    }

    /// A build that stops half-way through moving its files into place (killed, a disk full, a
    /// rename that fails) leaves a journal of every output it was touching, so the next build
    /// trusts none of them: the page of an album it had just added, and that was deleted before
    /// the next build, is removed. Without the journal that page stayed published for good, as
    /// no record named it.
    @Test func aBuildStoppedWhileWritingLeavesAJournalThatRemovesWhatIsGone() async throws {
        let folder = try site(12)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let add = ["add", "--artist", "Artist", "--genre", "Pop", "--year", "2000", "--cover", "covers/a.svg", "--title"]
        #expect(try await GalleryBinary.run(add + ["Title 055"], in: folder.url).status == 0)
        #expect(try await GalleryBinary.run(add + ["Title 99"], in: folder.url).status == 0)
        #expect(try await GalleryBinary.run(["delete", "artist-title-05"], in: folder.url).status == 0)
        // A folder where the last new page must go stops the write step after the first ones.
        try folder.write("in the way", to: "public/albums/artist-title-99/index.html/blocker")
        let stopped = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(stopped.status != 0)
        #expect(stopped.stderr.contains("the output folder may hold some of this build's files"), "\(stopped.stderr)")
        #expect(folder.exists("public/albums/artist-title-055/index.html"), "moved into place before the stop")
        #expect(folder.exists("public/albums/artist-title-05/index.html"), "the write step stopped before removing it")
        try FileManager.default.removeItem(at: folder.url.appending(path: "public/albums/artist-title-99"))
        #expect(try await GalleryBinary.run(["delete", "artist-title-055"], in: folder.url).status == 0)
        let again = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!folder.exists("public/albums/artist-title-055"), "the page of the album added and deleted is gone")
        #expect(!folder.exists("public/albums/artist-title-05"), "the deleted album's page is gone")
        #expect(folder.exists("public/albums/artist-title-99/index.html"))
        // And the output is what a clean build makes.
        let clean = try await GalleryBinary.run(["build", "-q", "--clean", "--output", "clean"], in: folder.url)
        #expect(clean.status == 0)
        #expect(folder.files(under: "public") == folder.files(under: "clean"))
        for path in folder.files(under: "clean") {
            #expect(try Data(contentsOf: folder.url.appending(path: "public/" + path)) == Data(contentsOf: folder.url.appending(path: "clean/" + path)), "\(path)")
        }
    }

    /// A build waits, saying so, while another holds the output folder (two at once used to
    /// share one staging folder and leave a mix of both); then it runs as usual.
    /// So does one with another cache (`--cache`), whose lock file is another: it removed the
    /// first build's staging folder, which failed half-way.
    @Test(arguments: [false, true])
    func aBuildWaitsForAnotherBuildOfTheSameFolder(withAnotherCache: Bool) async throws {
        let folder = try site(6)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let builds = folder.url.appending(path: ".gallery-cache/builds")
        let lockName = try #require(try FileManager.default.contentsOfDirectory(atPath: builds.path).first { $0.hasSuffix(".lock") })
        // What the other build holds: the lock file of its cache, and the output folder's in
        // the temporary folder.
        let folderLock = FileManager.default.temporaryDirectory.appending(path: "gallery-locks/" + FastHash.hash(BuildManifest.realPath(folder.url.appending(path: "public"))).hex16 + ".lock")
        let held = withAnotherCache
            ? open(folderLock.path, O_RDWR | O_CLOEXEC)
            : open(builds.appending(path: lockName).path, O_RDWR | O_CLOEXEC)
        #expect(held >= 0)
        #expect(flock(held, LOCK_EX | LOCK_NB) == 0, "no build holds it now")
        try folder.write("title = \"Waited\"\n[carousel]\nwindow = 2\nindex_page_size = 10\n", to: "gallery.toml")
        let process = Process()
        process.executableURL = GalleryBinary.url
        process.arguments = ["build"] + (withAnotherCache ? ["--cache", "other-cache"] : [])
        process.currentDirectoryURL = folder.url
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        // What it has said so far: on a busy machine it may take a while to reach the lock.
        let said = Mutex(Data())
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            said.withLock { $0.append(data) }
        }
        try process.run()
        let note = "public: note: another gallery build is writing this folder; waiting for it to finish"
        let deadline = ContinuousClock.now + .seconds(60)
        while !said.withLock({ String(decoding: $0, as: UTF8.self) }).contains(note), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .milliseconds(500))
        #expect(process.isRunning, "it waits")
        #expect(try !folder.read("public/index.html").contains("Waited"))
        close(held)
        try await GalleryBinary.waitForExit(of: process)
        errors.fileHandleForReading.readabilityHandler = nil
        let rest = errors.fileHandleForReading.readDataToEndOfFile()
        let stderr = said.withLock { String(decoding: $0 + rest, as: UTF8.self) }
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stderr.contains(note), "\(stderr)")
        #expect(try folder.read("public/index.html").contains("Waited"))
    }

    /// The output folder's lock is its own: a build into a sibling folder does not wait for it
    /// (one on the parent made a new sibling wait for a whole build, saying the folder was being
    /// written), and a folder whose parents are not made yet has one too.
    @Test func anOutputFoldersLockIsItsOwn() async throws {
        let folder = try site(6)
        func lock(_ output: String) -> Int32 {
            let file = FileManager.default.temporaryDirectory.appending(path: "gallery-locks/" + FastHash.hash(BuildManifest.realPath(folder.url.appending(path: output))).hex16 + ".lock")
            try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
            #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
            return descriptor
        }
        let held = lock("www/a")
        defer { close(held) }
        let sibling = try await GalleryBinary.run(["build", "--output", "www/b"], in: folder.url)
        #expect(sibling.status == 0, "\(sibling.stderr)")
        #expect(!sibling.stderr.contains("waiting"), "\(sibling.stderr)")
        let deep = lock("deep/a/b")
        let process = Process()
        process.executableURL = GalleryBinary.url
        process.arguments = ["build", "-q", "--output", "deep/a/b", "--cache", "deep-cache"]
        process.currentDirectoryURL = folder.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try await Task.sleep(for: .seconds(2))
        #expect(process.isRunning, "it waits for the lock of a folder not made yet")
        #expect(!folder.exists("deep/a/b/index.html"))
        close(deep)
        try await GalleryBinary.waitForExit(of: process)
        #expect(process.terminationStatus == 0)
        #expect(folder.exists("deep/a/b/index.html"))
    }

    /// One folder built through a link and then through its own path: the second build must not
    /// trust a record the first did not update (it said "nothing changed" over stale pages).
    @Test func aFolderBuiltThroughTwoPathsKeepsOneRecord() async throws {
        let folder = try site(6)
        try FileManager.default.createSymbolicLink(at: folder.url.appending(path: "linked"), withDestinationURL: folder.url)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        #expect(try await GalleryBinary.run(["edit", "artist-title-02", "--genre", "Ska"], in: folder.url).status == 0)
        #expect(try await GalleryBinary.run(["build", "-q", "--site", "linked", "--output", "linked/public"], in: folder.url).status == 0)
        #expect(try await GalleryBinary.run(["edit", "artist-title-02", "--genre", "Pop"], in: folder.url).status == 0)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        #expect(try !folder.read("public/albums/artist-title-02/index.html").contains(">Ska<"))
    }

    /// With no record of the output folder (a restored public/ beside a lost cache), a deleted
    /// album's page and a stray file used to stay published without a word, even with --clean.
    /// The build now names them, and --clean-destination removes them (keeping hidden files
    /// such as .git/). The same when public/ is a link to the folder a web server serves, which
    /// the walk for them did not follow: nothing was named or removed.
    @Test(arguments: [false, true])
    func filesNoBuildMadeAreNamedAndCleanDestinationRemovesThem(linked: Bool) async throws {
        let folder = try site(12)
        if linked {
            try FileManager.default.createDirectory(at: folder.url.appending(path: "www"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: folder.url.appending(path: "public").path, withDestinationPath: "www")
        }
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        try FileManager.default.removeItem(at: folder.url.appending(path: ".gallery-cache/builds"))
        #expect(try await GalleryBinary.run(["delete", "artist-title-05"], in: folder.url).status == 0)
        try folder.write("<p/>", to: "public/stray.html")
        try folder.write("ref: refs/heads/gh-pages", to: "public/.git/HEAD")
        let warned = try await GalleryBinary.run(["build", "--clean"], in: folder.url)
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(warned.stderr.contains("public: warning: 2 files here were not made by this build (albums/artist-title-05/index.html, stray.html) and stay published"), "\(warned.stderr)")
        #expect(folder.exists("public/stray.html") && folder.exists("public/albums/artist-title-05/index.html"))
        // Once a manifest records the folder, the next build says nothing of them.
        #expect(try await GalleryBinary.run(["build"], in: folder.url).stderr.contains("warning") == false)
        let cleaned = try await GalleryBinary.run(["build", "--clean-destination", "--log-format", "json"], in: folder.url)
        let summary = try #require(cleaned.stdout.split(separator: "\n").last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect((summary["files"] as? [String: Int])?["removed"] == 2, "\(summary)")
        #expect((summary["pages"] as? [String: Int])?["removed"] == 2, "\(summary)")
        #expect(!folder.exists("public/stray.html") && !folder.exists("public/albums/artist-title-05"))
        #expect(folder.exists("public/.git/HEAD"))
        #expect(try await GalleryBinary.run(["check"], in: folder.url).status == 0)
        if linked { #expect(folder.exists("www/index.html") && !folder.exists("www/stray.html")) }
    }

    @Test func aDeletedOutputIsWrittenAgainAndCleanRewritesEverything() async throws {
        let folder = try site(5)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        try FileManager.default.removeItem(at: folder.url.appending(path: "public/albums/artist-title-02/index.html"))
        try folder.write("tampered", to: "public/albums.json")
        let before = try folder.inodes()
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        #expect(TemporaryFolder.changed(before, try folder.inodes()) == ["albums/artist-title-02/index.html", "albums.json"])
        let again = try folder.inodes()
        let clean = try await GalleryBinary.run(["build", "--clean"], in: folder.url)
        #expect(clean.status == 0)
        #expect(TemporaryFolder.changed(again, try folder.inodes()) == Set(again.keys))
        #expect(clean.stderr.contains("\(again.count) files written, 0 unchanged"))
    }

    /// After an edit the pages left in place are judged by what the build found of them while
    /// it decoded the archive: one deleted by hand, one cut short and one changed at the same
    /// size, none of them the edited album's, are each written again with the edit's pages.
    @Test func anEditAlsoWritesAgainPagesDeletedOrChangedByHand() async throws {
        let folder = try site(30)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let (deleted, cut, same) = ("albums/artist-title-02/index.html", "albums/artist-title-25/index.html", "albums/artist-title-27/index.html")
        let (cutBytes, sameBytes) = (try folder.read("public/" + cut), try folder.read("public/" + same))
        try FileManager.default.removeItem(at: folder.url.appending(path: "public/" + deleted))
        try folder.write(String(cutBytes.prefix(100)), to: "public/" + cut)
        let edited = sameBytes.replacingOccurrences(of: "Title 27", with: "Title 2X")
        #expect(edited != sameBytes && edited.utf8.count == sameBytes.utf8.count)
        try folder.write(edited, to: "public/" + same)
        let edit = try await GalleryBinary.run(["edit", "15", "--title", "Renamed", "--slug", "artist-title-14"], in: folder.url)
        #expect(edit.status == 0, "\(edit.stderr)")
        let before = try folder.inodes()
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let window = (12...16).map { String(format: "albums/artist-title-%02d/index.html", $0) }
        #expect(TemporaryFolder.changed(before, try folder.inodes()) == Set(window + [deleted, cut, same, "page/2/index.html", "albums.json", "data/albums-0.json", "carousel.svg"]))
        #expect(try folder.read("public/" + cut) == cutBytes && folder.read("public/" + same) == sameBytes)
        #expect(try await GalleryBinary.run(["check"], in: folder.url).status == 0)
    }

    /// A hand edit that keeps an output's size is found as one that changes it: the file changed
    /// after the manifest was written, so it is read before it is trusted, and written again.
    /// The build after it stops at its stamp again, reading nothing.
    @Test func aSameSizeHandEditIsWrittenOverAndTheNextBuildStopsAtItsStamp() async throws {
        let folder = try site(5)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let page = "public/albums/artist-title-02/index.html"
        let original = try folder.read(page)
        let edited = original.replacingOccurrences(of: "Title 02", with: "Title 0X")
        #expect(edited != original && edited.utf8.count == original.utf8.count)
        try folder.write(edited, to: page)
        let before = try folder.inodes()
        let run = try await GalleryBinary.run(["build", "--log-format", "json"], in: folder.url)
        #expect(run.status == 0)
        #expect(try folder.read(page) == original)
        #expect(TemporaryFolder.changed(before, try folder.inodes()) == [String(page.dropFirst("public/".count))])
        let next = try await GalleryBinary.run(["build", "--log-format", "json"], in: folder.url)
        #expect(next.stdout.split(separator: "\n").last?.contains("\"up_to_date\":true") == true, "\(next.stdout.suffix(400))")
    }

    /// CI that restores an older cache (the newest of the same inputs, after a revert) over an
    /// output folder a newer build wrote: the older manifest's records are not taken for the
    /// files in place, which a same-size change (a year) left at their old sizes.
    @Test func anOlderCacheOverANewerOutputBuildsWhatACleanBuildBuilds() async throws {
        let folder = try site(6)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let cache = folder.url.appending(path: ".gallery-cache")
        let saved = folder.url.appending(path: "saved-cache")
        try FileManager.default.copyItem(at: cache, to: saved)
        let archive = try folder.read("content/albums.json")
        try folder.write(archive.replacingOccurrences(of: "2000", with: "2001"), to: "content/albums.json")
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        #expect(try folder.read("public/index.html").contains("2001"))
        // The older cache comes back, with the archive it was saved with: file times as they were.
        try FileManager.default.removeItem(at: cache)
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = ["-a", saved.path, cache.path]
        try await GalleryBinary.runToExit(copy)
        #expect(copy.terminationStatus == 0)
        try folder.write(archive, to: "content/albums.json")
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        #expect(try await GalleryBinary.run(["build", "-q", "--clean", "--output", "clean"], in: folder.url).status == 0)
        let outputs = try FileManager.default.subpathsOfDirectory(atPath: folder.url.appending(path: "clean").path)
        var compared = 0
        for path in outputs where !path.hasPrefix("covers/") {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.url.appending(path: "clean/\(path)").path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            #expect(try Data(contentsOf: folder.url.appending(path: "public/\(path)")) == Data(contentsOf: folder.url.appending(path: "clean/\(path)")), "\(path)")
            compared += 1
        }
        #expect(compared > 10)
        #expect(!(try folder.read("public/index.html").contains("2001")))
    }

    /// After an edit the SVG strip and the data file are spliced: the lines of unchanged albums
    /// copied from the files in place, the others made again. What that writes must be what a
    /// full build writes, whatever changed: a title, the album the strip opens on (the only tile
    /// with a highlight), an album added, the site's title (in the strip's head).
    @Test func editsSpliceTheStripAndTheDataFileToTheBytesOfAFullBuild() async throws {
        let folder = try site(30)
        let maps = { try FileManager.default.contentsOfDirectory(atPath: folder.url.appending(path: ".gallery-cache/builds").path).filter { $0.hasSuffix(".segments") } }
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        #expect(try maps().count == 1, "the build keeps a map of the strip and the data file")
        func expectAsAFullBuild(_ what: Comment) async throws {
            try await Self.expectAsAFullBuild(folder, what)
        }
        let edits: [(arguments: [String], what: Comment)] = [
            (["edit", "15", "--title", "Renamed & <b>", "--slug", "artist-title-14"], "a title"),
            (["edit", "1", "--title", "Ünïcode 🎸 first", "--slug", "artist-title-00"], "the first album's title, whose tile has the highlight"),
            (["edit", "30", "--artist", "Someone Else", "--slug", "artist-title-29"], "the last album's artist"),
            (["add", "--title", "New", "--artist", "Artist", "--genre", "Pop", "--year", "2001", "--cover", "covers/a.svg"], "an album added"),
        ]
        for edit in edits {
            let run = try await GalleryBinary.run(edit.arguments, in: folder.url)
            #expect(run.status == 0, "\(run.stderr)")
            let before = try folder.inodes()
            #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
            let changed = TemporaryFolder.changed(before, try folder.inodes())
            #expect(changed.isSuperset(of: ["carousel.svg", "albums.json"]), "\(changed)")
            try await expectAsAFullBuild(edit.what)
        }
        try folder.write("title = \"Another title\"\n" + String(decoding: try Data(contentsOf: folder.url.appending(path: "gallery.toml")), as: UTF8.self), to: "gallery.toml")
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        try await expectAsAFullBuild("the site's title changed")
    }

    /// Every file of `public/` is as a `--clean` build into `full/` makes it, and passes `check`.
    static func expectAsAFullBuild(_ folder: TemporaryFolder, _ what: Comment) async throws {
        try? FileManager.default.removeItem(at: folder.url.appending(path: "full"))
        let clean = try await GalleryBinary.run(["build", "-q", "--clean", "--output", "full"], in: folder.url)
        #expect(clean.status == 0, "\(clean.stderr)")
        let files = folder.files(under: "public")
        #expect(files == folder.files(under: "full"), "\(what)")
        for path in files {
            #expect(try Data(contentsOf: folder.url.appending(path: "public/\(path)")) == Data(contentsOf: folder.url.appending(path: "full/\(path)")), "\(path) after \(what)")
        }
        #expect(try await GalleryBinary.run(["check"], in: folder.url).status == 0)
    }

    /// The index pages copy their unchanged tiles from the pages in place, whatever the tile
    /// template: one whose tiles carry ids and links within the page (checked whole), one that
    /// shows the site's title in each tile (rendered whole), and the built-in one.
    @Test func indexPagesSpliceToTheBytesOfAFullBuildWhateverTheTileTemplate() async throws {
        let tiles: [(template: String?, what: Comment)] = [
            (nil, "the built-in tile"),
            ("<li class=\"tile\" id=\"tile-{{index}}\" style=\"left:{{x}}px;top:{{y}}px\"><a href=\"#tile-{{index}}\">#{{number}}</a> <a href=\"{{href}}\"><img src=\"{{src}}\" width=\"{{width}}\" height=\"{{height}}\" alt=\"{{alt}}\"/></a></li>\n", "tiles with ids and links within the page"),
            ("<li class=\"tile\" style=\"left:{{x}}px;top:{{y}}px\"><a href=\"{{href}}\"><img src=\"{{src}}\" width=\"{{width}}\" height=\"{{height}}\" alt=\"{{alt}} · {{site.title}}\"/></a></li>\n", "tiles that show the site's title"),
        ]
        for tile in tiles {
            let folder = try site(25)
            if let template = tile.template { try folder.write(template, to: "templates/partials/tile.mustache") }
            #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0, tile.what)
            for (album, title) in [(1, "First's <new> title"), (12, "Middle"), (25, "Last & least")] {
                let edit = try await GalleryBinary.run(["edit", "\(album)", "--title", title, "--slug", String(format: "artist-title-%02d", album - 1)], in: folder.url)
                #expect(edit.status == 0, "\(edit.stderr)")
                let build = try await GalleryBinary.run(["build", "-q"], in: folder.url)
                #expect(build.status == 0, "\(build.stderr)")
                try await Self.expectAsAFullBuild(folder, "album \(album) retitled, \(tile.what)")
            }
        }
    }

    /// A tile made again after an edit is checked before the page is written, though the tiles
    /// copied beside it are not checked again: a broken link in it fails the build with the
    /// finding a full build gives, and a duplicate id is found though its twin was copied.
    @Test func aSplicedIndexPageWithABrokenTileFailsAsAFullBuildDoes() async throws {
        let folder = try Fixture.site((0..<12).map { Fixture.album(String(format: "Title %02d", $0), "Artist", year: 2000) }, config: "[carousel]\nwindow = 2\n")
        try folder.write("<li class=\"tile\" style=\"left:{{x}}px;top:{{y}}px\"><a href=\"{{href}}\"><img src=\"{{src}}\" width=\"{{width}}\" height=\"{{height}}\" alt=\"{{alt}}\"/></a> <a href=\"/years/{{year}}.html\">{{year}}</a></li>\n", to: "templates/partials/tile.mustache")
        try folder.write("<p>2000</p>", to: "static/years/2000.html")
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let index = try Data(contentsOf: folder.url.appending(path: "public/index.html"))
        #expect(try await GalleryBinary.run(["edit", "7", "--year", "1999"], in: folder.url).status == 0)
        let spliced = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(spliced.status != 0)
        #expect(try Data(contentsOf: folder.url.appending(path: "public/index.html")) == index, "nothing broken is written")
        let full = try await GalleryBinary.run(["build", "--clean"], in: folder.url)
        #expect(full.status != 0)
        let findings = { (run: GalleryBinary.Run) in run.stderr.split(separator: "\n").filter { $0.contains("index.html:") } }
        #expect(!findings(spliced).isEmpty && findings(spliced) == findings(full), "\(spliced.stderr)")
        #expect(findings(spliced).contains { $0.contains("years/1999.html") })

        // A static file the copied tiles link to, removed: the index page is checked whole.
        try FileManager.default.removeItem(at: folder.url.appending(path: "public"))
        try FileManager.default.removeItem(at: folder.url.appending(path: "static/years/2000.html"))
        try folder.write("<p>1999</p>", to: "static/years/1999.html")
        try folder.write("<p>2000</p>", to: "static/years/2000.html")
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        try FileManager.default.removeItem(at: folder.url.appending(path: "static/years/1999.html"))
        #expect(try await GalleryBinary.run(["edit", "1", "--title", "Retitled", "--slug", "artist-title-00"], in: folder.url).status == 0)
        let removed = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(removed.status != 0)
        #expect(removed.stderr.split(separator: "\n").contains { $0.contains("(public/index.html:") && $0.contains("years/1999.html") }, "\(removed.stderr)")

        // A tile that links to another album's page (through its params): that album moves, and
        // the copied tile's link breaks though the tile is unchanged (found by the second review).
        let linked = try Fixture.site((0..<8).map { Fixture.album(String(format: "Title %02d", $0), "Artist", slug: "a\($0)") }, config: "[carousel]\nwindow = 1\n")
        let archive = linked.url.appending(path: "content/albums.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: archive)) as? [String: Any])
        var entries = try #require(json["albums"] as? [[String: Any]])
        entries[0]["params"] = ["see": "/albums/a5/"]
        json["albums"] = entries
        try JSONSerialization.data(withJSONObject: json).write(to: archive)
        try linked.write("<li class=\"tile\" style=\"left:{{x}}px;top:{{y}}px\"><a href=\"{{href}}\"><img src=\"{{src}}\" width=\"{{width}}\" height=\"{{height}}\" alt=\"{{alt}}\"/></a>{{#params.see}}<a href=\"{{params.see}}\">see also</a>{{/params.see}}</li>\n", to: "templates/partials/tile.mustache")
        #expect(try await GalleryBinary.run(["build", "-q"], in: linked.url).status == 0)
        #expect(try await GalleryBinary.run(["edit", "6", "--slug", "a5-moved"], in: linked.url).status == 0)
        let moved = try await GalleryBinary.run(["build"], in: linked.url)
        #expect(moved.status != 0)
        #expect(moved.stderr.contains("(public/index.html:") && moved.stderr.contains("/albums/a5/"), "\(moved.stderr)")

        // Ids from the titles: a title given to a second album repeats the first one's id.
        let named = try Fixture.site((0..<12).map { Fixture.album(String(format: "Title%02d", $0), "Artist") }, config: "[carousel]\nwindow = 2\n")
        try named.write("<li class=\"tile\" id=\"t-{{title}}\" style=\"left:{{x}}px;top:{{y}}px\"><a href=\"{{href}}\"><img src=\"{{src}}\" width=\"{{width}}\" height=\"{{height}}\" alt=\"{{alt}}\"/></a></li>\n", to: "templates/partials/tile.mustache")
        #expect(try await GalleryBinary.run(["build", "-q"], in: named.url).status == 0)
        #expect(try await GalleryBinary.run(["edit", "9", "--title", "Title03", "--slug", "artist-title08"], in: named.url).status == 0)
        let repeated = try await GalleryBinary.run(["build"], in: named.url)
        #expect(repeated.status != 0)
        #expect(repeated.stderr.contains("index.html:") && repeated.stderr.contains("duplicate id 't-Title03'"), "\(repeated.stderr)")
    }

    /// A splice copies bytes from the file in place, so it must be the file the last build
    /// wrote: one changed by hand (here keeping its size, which is all that tells an unchanged
    /// output) or a map that is damaged is not spliced from, and the file is made in full.
    @Test func aStripChangedByHandOrADamagedMapIsMadeInFull() async throws {
        let folder = try site(20)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let strip = folder.url.appending(path: "public/carousel.svg")
        let original = try String(contentsOf: strip, encoding: .utf8)
        #expect(original.contains("Title 03 by Artist"))
        try folder.write(original.replacingOccurrences(of: "Title 03 by Artist", with: "Title XX by Artist"), to: "public/carousel.svg")
        let index = folder.url.appending(path: "public/index.html")
        let page = try String(contentsOf: index, encoding: .utf8)
        #expect(page.contains("Title 03 by Artist"))
        try folder.write(page.replacingOccurrences(of: "Title 03 by Artist", with: "Title XX by Artist"), to: "public/index.html")
        #expect(try await GalleryBinary.run(["edit", "10", "--title", "Renamed", "--slug", "artist-title-09"], in: folder.url).status == 0)
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let rebuilt = try String(contentsOf: strip, encoding: .utf8)
        #expect(rebuilt.contains("Title 03 by Artist") && !rebuilt.contains("Title XX"), "the hand-made change was spliced into the strip")
        #expect(rebuilt.contains("Renamed by Artist"))
        let rebuiltPage = try String(contentsOf: index, encoding: .utf8)
        #expect(rebuiltPage.contains("Title 03 by Artist") && !rebuiltPage.contains("Title XX"), "the hand-made change was spliced into the index page")
        #expect(rebuiltPage.contains("Renamed by Artist"))

        let builds = folder.url.appending(path: ".gallery-cache/builds")
        for name in try FileManager.default.contentsOfDirectory(atPath: builds.path) where name.hasSuffix(".segments") {
            let file = builds.appending(path: name)
            let bytes = try Data(contentsOf: file)
            // Cut short, then its keys scrambled past the header: neither may give a wrong file.
            try bytes.prefix(bytes.count / 2).write(to: file)
            #expect(try await GalleryBinary.run(["edit", "11", "--title", "Cut", "--slug", "artist-title-10"], in: folder.url).status == 0)
            #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
            var scrambled = try Data(contentsOf: file)
            for index in stride(from: 200, to: scrambled.count, by: 7) { scrambled[index] ^= 0x5A }
            try scrambled.write(to: file)
            #expect(try await GalleryBinary.run(["edit", "12", "--title", "Scrambled", "--slug", "artist-title-11"], in: folder.url).status == 0)
            #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        }
        #expect(try await GalleryBinary.run(["build", "-q", "--clean", "--output", "full"], in: folder.url).status == 0)
        for path in ["carousel.svg", "albums.json", "index.html", "page/2/index.html"] {
            #expect(try Data(contentsOf: folder.url.appending(path: "public/\(path)")) == Data(contentsOf: folder.url.appending(path: "full/\(path)")), "\(path)")
        }
    }

    @Test func cleanBuildsOfTheSameInputAreByteIdentical() async throws {
        let albums = (0..<40).map { Fixture.album("Título \($0) & <b>", "Ärtist \($0 % 7)") }
        let folder = try Fixture.site(albums, config: "[carousel]\nindex_page_size = 15\n")
        #expect(try await GalleryBinary.run(["build", "-q", "--output", "one"], in: folder.url).status == 0)
        #expect(try await GalleryBinary.run(["build", "-q", "--clean", "--output", "two"], in: folder.url).status == 0)
        let one = folder.files(under: "one")
        #expect(one == folder.files(under: "two"))
        #expect(one.count > 40)
        for path in one {
            #expect(try Data(contentsOf: folder.url.appending(path: "one/\(path)")) == Data(contentsOf: folder.url.appending(path: "two/\(path)")), "\(path) differs")
        }
    }
}

/// `--log-format json`: what a CI job reads.
@Suite struct JSONLogTests {
    func events(_ run: GalleryBinary.Run) throws -> [[String: Any]] {
        try run.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
        }
    }

    @Test func everyLineIsAnEventAndTheLastIsTheSummary() async throws {
        let site = try Fixture.site([Fixture.album("A", "B"), Fixture.album("C", "D", cover: "covers/missing.png")])
        let run = try await GalleryBinary.run(["build", "--log-format", "json"], in: site.url)
        #expect(run.status == 0)
        // The findings also go to standard error as text, for a CI log; nothing else does.
        #expect(run.stderr.hasPrefix("content/albums.json:3:") && run.stderr.contains(": warning: album 2 (\"C\" by D) shows a placeholder"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        let events = try events(run)
        #expect(events.first?["event"] as? String == "step")
        #expect(events.filter { $0["event"] as? String == "step" }.compactMap { $0["name"] as? String } == ["load", "fetch covers", "make thumbnails", "layout", "render", "validate", "write"])
        let warning = try #require(events.first { $0["event"] as? String == "diagnostic" })
        #expect(warning["severity"] as? String == "warning")
        #expect(warning["path"] as? String == "content/albums.json")
        #expect(warning["line"] as? Int == 3)
        let summary = try #require(events.last)
        #expect(summary["event"] as? String == "summary")
        #expect(summary["succeeded"] as? Bool == true)
        #expect(summary["albums"] as? Int == 2)
        #expect((summary["pages"] as? [String: Any])?["written"] as? Int == 4)
        #expect((summary["covers"] as? [String: Any])?["failed"] as? Int == 1)
        #expect((summary["covers"] as? [String: Any])?["local"] as? Int == 1)
        #expect(summary["warnings"] as? Int == 1)
        #expect((summary["timings"] as? [String: Any])?.count == 7)
        let again = try await self.events(GalleryBinary.run(["build", "--log-format", "json"], in: site.url))
        #expect((again.last?["pages"] as? [String: Any])?["unchanged"] as? Int == 4)
        // -q keeps only the findings and the summary, as it keeps only warnings and errors in text.
        let quiet = try await self.events(GalleryBinary.run(["build", "--log-format", "json", "-q", "--clean"], in: site.url))
        #expect(quiet.compactMap { $0["event"] as? String } == ["diagnostic", "summary"], "\(quiet)")
    }

    @Test func aFailedBuildExitsNonZeroAndSaysWhereInTheSummary() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write("{\"version\": 1, \"albums\": [{}]}", to: "content/albums.json")
        let run = try await GalleryBinary.run(["build", "--log-format", "json"], in: site.url)
        #expect(run.status != 0)
        let summary = try #require(try events(run).last)
        #expect(summary["succeeded"] as? Bool == false)
        #expect(summary["failed_step"] as? String == "load")
        #expect((summary["errors"] as? Int ?? 0) >= 5)
    }

    /// A build that fails its checks after rendering changed pages says it wrote none of them,
    /// as it did not: the one line CI shows of a failed build must not suggest half a publish.
    @Test func aBuildThatFailsItsChecksCountsNoPageWritten() async throws {
        let site = try Fixture.site((0..<4).map { Fixture.album("Title \($0)", "B") })
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let before = try site.inodes()
        #expect(try await GalleryBinary.run(["edit", "2", "--title", "Edited"], in: site.url).status == 0)
        try site.write("<p>broken<br></p>\n", to: "templates/partials/pager.mustache")
        let run = try await GalleryBinary.run(["build", "--log-format", "json"], in: site.url)
        #expect(run.status != 0)
        let summary = try #require(try events(run).last)
        #expect(summary["failed_step"] as? String == "validate", "\(summary)")
        #expect((summary["pages"] as? [String: Any])?["written"] as? Int == 0, "\(summary)")
        #expect((summary["files"] as? [String: Any])?["written"] as? Int == 0, "\(summary)")
        #expect(TemporaryFolder.changed(before, try site.inodes()).isEmpty)
    }
}
