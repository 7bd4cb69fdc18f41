import BlueLibrary
import Foundation
import Testing

/// The library commands run as a user runs them: list, add, edit, delete, undo, import.
@Suite struct LibraryCommandTests: StarterSiteTests {
    func titles(_ folder: TemporaryFolder) throws -> [String] {
        let data = Data(try folder.read("site/content/albums.json").utf8)
        let archive = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (archive?["albums"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    static let seedTitles = ["Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie"]

    @Test func listShowsNumbersSlugsAndFields() async throws {
        let folder = try await starter()
        let table = try await run(["list"], folder)
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.first == "#  Slug                        Artist       Album                 Genre  Year")
        #expect(lines[1] == "1  david-bowie-best-of-bowie   David Bowie  Best of Bowie         Pop    1992")
        #expect(lines.count == 6)
        let json = try await run(["list", "--json"], folder)
        let albums = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(albums?.count == 5)
        #expect(albums?[4]["number"] as? Int == 5)
        #expect(albums?[4]["slug"] as? String == "madonna-american-pie")
        #expect(albums?[4]["year"] as? Int == 2000)
    }

    /// Words narrow the list to the albums where each is found, keeping the numbers `edit` and
    /// `delete` take; none found says so rather than printing a header alone.
    @Test func listWithWordsShowsTheAlbumsThatHaveThem() async throws {
        let folder = try await starter()
        let found = try await run(["list", "POP", "2000"], folder)
        #expect(found.status == 0)
        let lines = found.stdout.split(separator: "\n")
        #expect(lines.count == 3, "\(found.stdout)")
        #expect(lines[1].hasPrefix("4  u2-staring-at-the-sun"), "\(found.stdout)")
        #expect(lines[2].hasPrefix("5  madonna-american-pie"), "\(found.stdout)")
        let json = try await run(["list", "--json", "doubt"], folder)
        let albums = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(albums?.count == 1)
        #expect(albums?.first?["number"] as? Int == 2)
        let none = try await run(["list", "bowie", "2003"], folder)
        #expect(none.status == 1, "as grep, nothing found exits 1")
        let noneJSON = try await run(["list", "--json", "bowie", "2003"], folder)
        #expect(noneJSON.status == 1)
        #expect(noneJSON.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        #expect(none.stdout.isEmpty)
        #expect(none.stderr == "list: no album matches 'bowie' '2003' (of 5); `gallery list` shows them all\n")
    }

    /// A published page keeps its address: a twin added before it, or an edit that gives
    /// another album its title, takes another slug; deleting an original leaves its twin.
    @Test func noChangeMovesAnotherAlbumsPage() async throws {
        let folder = try await starter()
        let slugs = { () async throws -> [String] in
            try await self.run(["list", "--json"], folder).stdout.split(separator: "\n").compactMap { line in
                line.range(of: #""slug":"[^"]*""#, options: .regularExpression).map { String(line[$0].dropFirst(8).dropLast()) }
            }
        }
        let before = try await slugs()
        #expect(before.count == 5)
        #expect(try await run(["add", "--title", "Nothing Like The Sun", "--artist", "Sting", "--genre", "Pop", "--year", "1999", "--cover", "covers/nothing-like-the-sun.svg", "--at", "1"], folder).status == 0)
        #expect(try await slugs() == ["sting-nothing-like-the-sun-2"] + before)
        #expect(try await run(["edit", "2", "--title", "American Pie", "--artist", "Madonna"], folder).status == 0)
        #expect(try await slugs() == ["sting-nothing-like-the-sun-2"] + before)
        // Deleting an original leaves a twin added after it at its own address, not at the
        // original's; undo puts both back as they were.
        #expect(try await run(["add", "--title", "Staring at the Sun", "--artist", "U2", "--genre", "Pop", "--year", "2000", "--cover", "covers/staring-at-the-sun.svg"], folder).status == 0)
        #expect(try await slugs().last == "u2-staring-at-the-sun-2")
        let archive = try folder.read("site/content/albums.json")
        let delete = try await run(["delete", "u2-staring-at-the-sun"], folder)
        #expect(delete.stdout == "deleted album 5, \"Staring at the Sun\" by U2; its namesake at albums/u2-staring-at-the-sun-2/ keeps that page as its own slug\n")
        #expect(try await slugs() == ["sting-nothing-like-the-sun-2"] + before.filter { $0 != "u2-staring-at-the-sun" } + ["u2-staring-at-the-sun-2"])
        #expect(try await run(["undo"], folder).status == 0)
        #expect(try folder.read("site/content/albums.json") == archive)
        // Deleted with another album before it, the namesake is named by its page: a number
        // would be one it had only between the two deletes.
        let two = try await run(["delete", "u2-staring-at-the-sun", "1"], folder)
        #expect(two.stdout.contains("its namesake at albums/u2-staring-at-the-sun-2/ keeps that page as its own slug"), "\(two.stdout)")
        #expect(!two.stdout.contains("album 6") && !two.stdout.contains("album 5 keeps"), "\(two.stdout)")
    }

    /// Twins of a long title (a classical work on LP and CD): the derived slug is cut at 80
    /// characters, and the twin's `-2` makes 82. The library commands write such an address into
    /// the archive to keep it, and refused it as "not lowercase letters, digits and dashes":
    /// neither twin could be deleted, nor `list --json` imported back.
    @Test func twinsOfALongTitleCanBeDeletedAndImportedBack() async throws {
        let folder = try await starter()
        let title = "Beethoven: Symphony No. 9 in D Minor, Op. 125 Choral, Live from the Musikverein"
        for _ in 0..<2 {
            let add = try await run(["add", "--title", title, "--artist", "Leonard Bernstein", "--genre", "Classical", "--year", "1979", "--cover", "covers/best-of-bowie.svg"], folder)
            #expect(add.status == 0, "\(add.stderr)")
        }
        let listed = try await run(["list", "--json"], folder)
        let last = try #require(listed.stdout.split(separator: "\n").last { $0.contains("\"slug\"") })
        let twin = try #require(last.range(of: #""slug":"[^"]*""#, options: .regularExpression).map { String(last[$0].dropFirst(8).dropLast()) })
        #expect(twin.count == 82 && twin.hasSuffix("-2"), "\(twin)")
        try folder.write(listed.stdout, to: "list.json")
        let imported = try await run(["import", "--update", "list.json"], folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        let delete = try await run(["delete", "6"], folder)
        #expect(delete.status == 0, "\(delete.stderr)")
        #expect(delete.stdout.contains("keeps that page as its own slug"), "\(delete.stdout)")
        #expect(try folder.read("site/content/albums.json").contains("\"slug\": \"\(twin)\""))
        // A slug given by hand past the limit is told so, not called a wrong character.
        let long = String(repeating: "a", count: 101)
        let refused = try await run(["edit", "1", "--slug", long], folder)
        #expect(refused.stderr.contains("is 101 characters long, more than the 100 a slug may have"), "\(refused.stderr)")
        let dashes = try await run(["edit", "1", "--slug", "a--b"], folder)
        #expect(dashes.stderr.contains("--slug \"a--b\" is no slug: it has two dashes in a row; try \"a-b\""), "\(dashes.stderr)")
    }

    /// An album appended to the archive by hand, with the slug an earlier album has from its
    /// name, moves that album's page; `gallery add --slug` refuses it, and the build, which took
    /// it without a word, says so.
    @Test func aHandAddedSlugThatMovesAnotherPageIsWarnedOf() async throws {
        let folder = try await starter()
        let archive = try folder.read("site/content/albums.json")
        let added = archive.replacingOccurrences(of: "\n  ]\n}", with: ",\n    {\"title\": \"Other\", \"artist\": \"B\", \"genre\": \"Pop\", \"year\": 2001, \"cover_url\": \"covers/best-of-bowie.svg\", \"slug\": \"david-bowie-best-of-bowie\"}\n  ]\n}")
        #expect(added != archive)
        try folder.write(added, to: "site/content/albums.json")
        let build = try await run(["build", "-q"], folder)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stderr.contains("warning: album 6, \"Other\" by B, has the slug \"david-bowie-best-of-bowie\", which album 1, \"Best of Bowie\" by David Bowie, has from its artist and title, so that album's page is albums/david-bowie-best-of-bowie-2/ instead; give album 6 another slug, unless that is meant"), "\(build.stderr)")
        // Given to an album before it (the top of a newest-first archive), the same; and the
        // note on the page that went does not send the pushed album back to it.
        try folder.write(archive.replacingOccurrences(of: "\"title\": \"Best of Bowie\",", with: "\"slug\": \"u2-staring-at-the-sun\", \"title\": \"Best of Bowie\","), to: "site/content/albums.json")
        #expect(try folder.read("site/content/albums.json") != archive)
        let top = try await run(["build"], folder)
        #expect(top.status == 0, "\(top.stderr)")
        #expect(top.stderr.contains("warning: album 1, \"Best of Bowie\" by David Bowie, has the slug \"u2-staring-at-the-sun\", which album 4, \"Staring at the Sun\" by U2, has from its artist and title, so that album's page is albums/u2-staring-at-the-sun-2/ instead"), "\(top.stderr)")
        #expect(!top.stderr.contains("with its new title or artist"), "\(top.stderr)")
    }

    @Test func addEditDeleteAndUndoAcrossInvocations() async throws {
        let folder = try await starter()
        let add = try await run(["add", "--title", "Heroes", "--artist", "David Bowie", "--genre", "Rock", "--year", "1977", "--cover", "covers/h.png", "--at", "2"], folder)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout == "added \"Heroes\" by David Bowie as album 2\n")
        #expect(try titles(folder) == ["Best of Bowie", "Heroes", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie"])
        #expect(try await run(["edit", "david-bowie-heroes", "--year", "1978", "--title", "\"Heroes\""], folder).status == 0)
        #expect(try titles(folder)[1] == "\"Heroes\"")
        #expect(try await run(["delete", "4"], folder).stdout == "deleted album 4, \"Nothing Like The Sun\" by Sting\n")
        #expect(try await run(["delete", "madonna-american-pie"], folder).status == 0)
        #expect(try titles(folder) == ["Best of Bowie", "\"Heroes\"", "It's My Life", "Staring at the Sun"])
        // Each undo is a separate process: the history lives beside the archive.
        #expect(try await run(["undo"], folder).stdout == "undid: deleted album 5, \"American Pie\" by Madonna\n")
        #expect(try await run(["undo"], folder).status == 0)
        #expect(try titles(folder) == ["Best of Bowie", "\"Heroes\"", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie"])
        #expect(try await run(["undo"], folder).stdout == "undid: edited album 2, \"\"Heroes\"\" by David Bowie\n")
        #expect(try titles(folder)[1] == "Heroes")
        #expect(try await run(["undo"], folder).status == 0)
        #expect(try titles(folder) == Self.seedTitles)
        let nothing = try await run(["undo"], folder)
        #expect(nothing.status != 0)
        #expect(nothing.stderr == "error: there is nothing to undo\n")
    }

    /// What is no reason to refuse a change but is worth a word: an album the archive already
    /// has (same artist and title, ignoring case, as `import` compares), a cover that is not
    /// there. The change is made, the exit status is 0, and the warnings name the albums.
    @Test func addAndEditWarnOfDuplicatesAndMissingCoversButStillChange() async throws {
        let folder = try await starter()
        let duplicate = try await run(["add", "--title", "best of BOWIE", "--artist", "David Bowie", "--genre", "Pop", "--year", "1992", "--cover", "covers/best-of-bowie.svg"], folder)
        #expect(duplicate.status == 0)
        #expect(duplicate.stdout == "added \"best of BOWIE\" by David Bowie as album 6\n")
        #expect(duplicate.stderr == "warning: album 1 is also \"Best of Bowie\" by David Bowie; if album 6 is one too many, `gallery undo` takes the change back\n")
        #expect(try titles(folder).count == 6)
        // Past three twins, one line that counts them (10,000 of a shop's "Greatest Hits" were
        // 10,000 lines).
        var many: GalleryBinary.Run?
        for _ in 0..<3 {
            many = try await run(["add", "--at", "2", "--title", "Best of Bowie", "--artist", "David Bowie", "--genre", "Pop", "--year", "1992", "--cover", "covers/best-of-bowie.svg"], folder)
        }
        #expect(many?.stderr == "warning: 4 albums (1, 3–4, 9) are also \"Best of Bowie\" by David Bowie; if album 2 is one too many, `gallery undo` takes the change back\n", "\(many?.stderr ?? "")")
        for _ in 0..<3 { #expect(try await run(["undo"], folder).status == 0) }

        let missing = try await run(["add", "--title", "Low", "--artist", "David Bowie", "--genre", "Rock", "--year", "1977", "--cover", "covers/low.jpg"], folder)
        #expect(missing.status == 0)
        #expect(missing.stderr == "warning: album 7's cover site/content/covers/low.jpg does not exist yet; the album shows a placeholder until it does\n")
        let folderCover = try await run(["edit", "7", "--cover", "covers"], folder)
        #expect(folderCover.status == 0)
        #expect(folderCover.stderr == "warning: album 7's cover site/content/covers is a folder, not an image; the album shows a placeholder until cover_url names an image\n")
        // A file that is there but is no image: the build would refuse it, so add and edit say so.
        try folder.write("a list of songs\n", to: "site/content/covers/notes.txt")
        let notImage = try await run(["edit", "7", "--cover", "covers/notes.txt"], folder)
        #expect(notImage.status == 0)
        #expect(notImage.stderr == "warning: album 7's cover site/content/covers/notes.txt is not a JPEG, PNG, WebP, GIF or SVG image; the album shows a placeholder until cover_url names an image\n")
        #expect(try await run(["edit", "7", "--cover", "../gallery.toml"], folder).stderr.contains("site/gallery.toml is not a JPEG, PNG, WebP, GIF or SVG image"))
        // A file whose first bytes say what it is gets that said, with what to do.
        try folder.write("version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 12345\n", to: "site/content/covers/lfs.jpg")
        #expect(try await run(["edit", "7", "--cover", "covers/lfs.jpg"], folder).stderr == "warning: album 7's cover site/content/covers/lfs.jpg is a Git LFS pointer, not the image; the album shows a placeholder until cover_url names a JPEG, PNG, WebP, GIF or SVG image; fetch the LFS files (git lfs pull; in GitHub Actions, actions/checkout with lfs: true)\n")
        #expect(try await run(["edit", "7", "--cover", "covers/low.jpg"], folder).status == 0)
        // A new title moves a derived page address: said, with the way to keep the old one.
        let moved = try await run(["edit", "7", "--title", "Low (Remastered)"], folder)
        #expect(moved.status == 0)
        #expect(moved.stderr == "warning: album 7's page moves from albums/david-bowie-low/ to albums/david-bowie-low-remastered/, so links to the old address will break; `gallery edit 7 --slug david-bowie-low` keeps the old one\n")
        #expect(try await run(["undo"], folder).status == 0)
        // So does a new slug, and giving one up; pinning the address it has moves nothing.
        let slugged = try await run(["edit", "7", "--slug", "low"], folder)
        #expect(slugged.stderr == "warning: album 7's page moves from albums/david-bowie-low/ to albums/low/, so links to the old address will break; `gallery edit 7 --slug david-bowie-low` keeps the old one\n")
        let unpinned = try await run(["edit", "7", "--slug", ""], folder)
        #expect(unpinned.stderr == "warning: album 7's page moves from albums/low/ to albums/david-bowie-low/, so links to the old address will break; `gallery edit 7 --slug low` keeps the old one\n")
        #expect(try await run(["edit", "7", "--slug", "david-bowie-low"], folder).stderr.isEmpty)
        #expect(try await run(["undo"], folder).status == 0)

        let remote = try await run(["add", "--title", "Lodger", "--artist", "David Bowie", "--genre", "Rock", "--year", "1979", "--cover", "https://example.org/lodger.jpg"], folder)
        #expect(remote.status == 0)
        #expect(remote.stderr.isEmpty, "a remote cover is fetched by the build: \(remote.stderr)")

        // An edit is told only about what it changed.
        #expect(try await run(["edit", "7", "--year", "1978"], folder).stderr.isEmpty)
        let outside = try await run(["edit", "7", "--cover", "../../outside.png"], folder)
        #expect(outside.status == 0)
        #expect(outside.stderr.hasPrefix("warning: album 7's cover cannot be used: "), "\(outside.stderr)")
        let retitled = try await run(["edit", "8", "--title", "Low", "--cover", "covers/low.svg"], folder)
        #expect(retitled.stderr.contains("warning: album 7 is also \"Low\" by David Bowie"), "\(retitled.stderr)")
        try folder.write("<svg xmlns=\"http://www.w3.org/2000/svg\"/>", to: "site/content/covers/low.svg")
        #expect(try await run(["edit", "8", "--cover", "./covers/low.svg"], folder).stderr.isEmpty, "the cover is there now")
    }

    @Test func undoOfADeleteClampsItsIndexWhenTheListIsShorter() async throws {
        let folder = try await starter()
        #expect(try await run(["delete", "5"], folder).status == 0)
        #expect(try await run(["delete", "4"], folder).status == 0)
        #expect(try await run(["delete", "3"], folder).status == 0)
        #expect(try await run(["undo"], folder).status == 0)
        #expect(try titles(folder) == ["Best of Bowie", "It's My Life", "Nothing Like The Sun"])
        #expect(try await run(["delete", "1"], folder).status == 0)
        #expect(try await run(["delete", "1"], folder).status == 0)
        #expect(try titles(folder) == ["Nothing Like The Sun"])
        // The history still holds "deleted album 4": the list has one album, so it comes back last.
        #expect(try await run(["undo"], folder).status == 0)
        #expect(try await run(["undo"], folder).status == 0)
        #expect(try await run(["undo"], folder).status == 0)
        #expect(try titles(folder) == ["Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun"])
    }

    @Test func theUndoHistoryIsBounded() async throws {
        let folder = try await starter()
        try folder.write("[library]\nundo_limit = 2\n", to: "site/gallery.toml")
        for number in [5, 4, 3] { #expect(try await run(["delete", "\(number)"], folder).status == 0) }
        #expect(try await run(["undo"], folder).status == 0)
        #expect(try await run(["undo"], folder).status == 0)
        let past = try await run(["undo"], folder)
        #expect(past.status != 0)
        #expect(past.stderr == "error: there is nothing left to undo: the history keeps the last 2 changes ([library] undo_limit in gallery.toml), and forgot 1 older one\n", "the limit, not an empty history")
        #expect(try titles(folder) == ["Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun"])
        // With no history kept, undo says why there is nothing to undo.
        try folder.write("[library]\nundo_limit = 0\n", to: "site/gallery.toml")
        #expect(try await run(["delete", "1"], folder).status == 0)
        #expect(try await run(["undo"], folder).stderr == "error: there is nothing to undo: [library] undo_limit = 0 in gallery.toml keeps no changes to undo\n")
    }

    @Test func invalidInputChangesNothingAndSaysWhy() async throws {
        let folder = try await starter()
        let before = try folder.read("site/content/albums.json")
        let blank = try await run(["add", "--title", " ", "--artist", "A", "--genre", "G", "--year", "20", "--cover", "c.png"], folder)
        #expect(blank.status != 0)
        #expect(blank.stderr == "error: --title is empty; fill it in\nerror: --year is 20, which is not a year; write a whole number from 1000 to 9999\nerror: nothing was changed\n")
        let badSlug = try await run(["edit", "1", "--slug", "Not OK"], folder)
        #expect(badSlug.stderr.contains("--slug \"Not OK\" is not lowercase ASCII letters, digits and dashes; try \"not-ok\""))
        let clash = try await run(["edit", "2", "--slug", "mine"], folder)
        #expect(clash.status == 0)
        let taken = try await run(["edit", "3", "--slug", "mine"], folder)
        #expect(taken.status != 0)
        #expect(taken.stderr.contains("--slug \"mine\" is already the page address of album 2, \"It's My Life\" by No Doubt; choose another slug"))
        #expect(try await run(["delete", "9"], folder).stderr == "error: there is no album 9; `gallery list` numbers them 1 to 5\n")
        #expect(try await run(["delete", "no-such-slug"], folder).status != 0)
        let missing = try await run(["add", "--title", "T"], folder)
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("Missing --artist, --genre, --cover, --year"))
        let notANumber = try await run(["add", "--title", "T", "--artist", "A", "--genre", "G", "--year", "soon", "--cover", "c"], folder)
        #expect(notANumber.status != 0)
        #expect(try await run(["undo"], folder).status == 0)
        #expect(try folder.read("site/content/albums.json") == before)
    }

    @Test func everySaveKeepsTheVersionBeforeAsABackup() async throws {
        let folder = try await starter()
        let before = try folder.read("site/content/albums.json")
        #expect(try await run(["delete", "1"], folder).status == 0)
        #expect(try folder.read("site/content/albums.json.bak") == before)
        #expect(folder.files(under: "site/content").filter { $0.contains(".tmp-") }.isEmpty)
    }

    @Test func twentyConcurrentAddsLeaveTwentyNewAlbums() async throws {
        let folder = try await starter()
        let processes = (0..<20).map { number -> Process in
            let process = Process()
            process.executableURL = GalleryBinary.url
            process.arguments = ["add", "--site", "site", "--title", "Concurrent \(number)", "--artist", "Racer", "--genre", "Pop", "--year", "2001", "--cover", "c.png"]
            process.currentDirectoryURL = folder.url
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            return process
        }
        for process in processes { try process.run() }
        for process in processes { try await GalleryBinary.waitForExit(of: process) }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let titles = try titles(folder)
        #expect(titles.count == 25)
        #expect(Set(titles.filter { $0.hasPrefix("Concurrent ") }) == Set((0..<20).map { "Concurrent \($0)" }))
    }

    @Test func killedAtAnyMomentTheArchiveIsBeforeOrAfter() async throws {
        let folder = try await starter()
        // A big archive makes every save take long enough to be interrupted in the middle.
        let albums = (0..<4000).map { Fixture.album("Title \($0) " + String(repeating: "x", count: 60), "Artist \($0)") }
        try folder.write(Fixture.archive(albums), to: "site/content/albums.json")
        // Time one uninterrupted add, then kill others at random moments across that span.
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try await run(["add", "--title", "Timed", "--artist", "K", "--genre", "Pop", "--year", "2002", "--cover", "c.png"], folder).status == 0)
        let span = UInt32(min(max((clock.now - start).components.attoseconds / 1_000_000_000_000 + (clock.now - start).components.seconds * 1_000_000, 20_000), 2_000_000))
        var outcomes: Set<Int> = []
        var generator = SystemRandomNumberGenerator()
        for round in 0..<25 {
            let before = try titles(folder)
            let process = Process()
            process.executableURL = GalleryBinary.url
            process.arguments = ["add", "--site", "site", "--title", "Round \(round)", "--artist", "K", "--genre", "Pop", "--year", "2002", "--cover", "c.png"]
            process.currentDirectoryURL = folder.url
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try await Task.sleep(for: .microseconds(UInt32.random(in: 0...span * 6 / 5, using: &generator)))
            kill(process.processIdentifier, SIGKILL)
            try await GalleryBinary.waitForExit(of: process)
            let after = try titles(folder)  // must still parse
            #expect(after == before || after == before + ["Round \(round)"], "round \(round) left \(after.count) albums")
            outcomes.insert(after.count - before.count)
        }
        // The archive still loads, and gallery can still change it.
        #expect(try await run(["add", "--title", "After", "--artist", "K", "--genre", "Pop", "--year", "2002", "--cover", "c.png"], folder).status == 0)
        #expect(folder.files(under: "site/content").filter { $0.contains(".tmp-") }.isEmpty)
        Swift.print("kill test outcomes (albums added per round): \(outcomes.sorted())")
    }

    /// `--year` takes a year as an import does: spaces around it, `1999.0`, the year of a date;
    /// anything else is refused with what to write, and a number out of range with the range.
    @Test func aYearIsTypedAsItIsImported() async throws {
        let folder = try await starter()
        for (typed, year) in [("1988 ", 1988), ("1999-05", 1999), ("2001-05-31", 2001), ("1977.0", 1977)] {
            let run = try await run(["edit", "1", "--year", typed], folder)
            #expect(run.status == 0, "\(typed): \(run.stderr)")
            #expect(try await self.run(["list", "--json"], folder).stdout.contains("\"number\":1,\"slug\":\"david-bowie-best-of-bowie\",\"artist\":\"David Bowie\",\"title\":\"Best of Bowie\",\"genre\":\"Pop\",\"year\":\(year),"), "\(typed)")
        }
        for typed in ["'99", "May 1999", "1999-13-01"] {
            let run = try await run(["add", "--title", "T", "--artist", "A", "--genre", "G", "--cover", "c.png", "--year", typed], folder)
            #expect(run.status == 64, "\(typed)")
            #expect(run.stderr.contains("Error: The value '\(typed)' is invalid for '--year <year>': write a year such as 1999, or a date such as 1999-05-01"), "\(run.stderr)")
        }
        let short = try await run(["edit", "1", "--year", "20"], folder)
        #expect(short.stderr == "error: --year is 20, which is not a year; write a whole number from 1000 to 9999\nerror: nothing was changed\n", "\(short.stderr)")
    }
}

/// `gallery import` from the three formats, and what it refuses.
@Suite struct ImportCommandTests: StarterSiteTests {
    func albums(_ folder: TemporaryFolder) throws -> [[String: Any]] {
        let archive = try JSONSerialization.jsonObject(with: Data(try folder.read("site/content/albums.json").utf8)) as? [String: Any]
        return archive?["albums"] as? [[String: Any]] ?? []
    }

    @Test func oneColumnMappedTwiceIsRefused() async throws {
        let folder = try await starter()
        try folder.write("A,Artist,Genre,Year,Cover\nT,X,Pop,1999,c.png\n", to: "in.csv")
        let run = try await run(["import", "in.csv", "--map", "A=title", "--map", "a=artist"], folder)
        #expect(run.status != 0)
        #expect(run.stderr.contains("--map names the column 'a' twice (columns match ignoring case): 'A=title' and 'a=artist'; keep one."), "\(run.stderr)")
        #expect(try await self.run(["import", "in.csv", "--map", "A=title"], folder).status == 0)
    }

    @Test func importsCSVWithFlexibleHeadersAndDates() async throws {
        let folder = try await starter()
        try folder.write("""
        ARTIST,Album,Style,Released,Cover URL
        Kraftwerk,Computer World,Electronic,1981-05-10,covers/cw.png
        "Simon & Garfunkel","Bridge over ""Troubled"" Water",Folk,1970-01,covers/b.png
        david bowie,best of BOWIE,Pop,1992,covers/x.png

        """, to: "in.csv")
        let run = try await run(["import", "in.csv"], folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("skipped row 3 (line 4): \"best of BOWIE\" by david bowie is already album 1 of the archive"))
        #expect(run.stdout.hasSuffix("imported 2 of 3 albums from csv in.csv\n"))
        let albums = try albums(folder)
        #expect(albums.count == 7)
        #expect(albums[6]["title"] as? String == "Bridge over \"Troubled\" Water")
        #expect(albums[6]["artist"] as? String == "Simon & Garfunkel")
        #expect(albums[6]["year"] as? Int == 1970)
        #expect(albums[5]["genre"] as? String == "Electronic")
        #expect(try await GalleryBinary.run(["undo", "--site", "site"], in: folder.url).stdout == "undid: imported 2 albums\n")
        #expect(try self.albums(folder).count == 5)
    }

    @Test func mapsUnusualColumnsAndAllowsDuplicatesOnRequest() async throws {
        let folder = try await starter()
        try folder.write("Performer,Record,Kind,When,Art\nDavid Bowie,Best of Bowie,Pop,1992,covers/a.png\n", to: "in.csv")
        let unmapped = try await run(["import", "in.csv"], folder)
        #expect(unmapped.status != 0)
        #expect(unmapped.stderr.contains("in.csv:1: no column for artist; name one Artist, or pass --map COLUMN=artist"))
        // It ends as a file with a bad row does, saying nothing was imported.
        #expect(unmapped.stderr.hasSuffix("\nerror: nothing was imported\n"), "\(unmapped.stderr)")
        let mapped = try await run(["import", "in.csv", "--map", "performer=artist", "--map", "Record=title", "--map", "Kind=genre", "--map", "When=year", "--map", "Art=cover_url", "--allow-duplicates"], folder)
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(try albums(folder).count == 6)
        let badField = try await run(["import", "in.csv", "--map", "Art=picture"], folder)
        #expect(badField.stderr.contains("'picture' is not a field"))
    }

    @Test func aMappedColumnMissingFromTheHeaderIsQuotedAsWrittenBesideTheFilesColumns() async throws {
        let folder = try await starter()
        try folder.write("title,artist,genre,year,cover_url\nB,A,Pop,1992,covers/a.png\n", to: "in.csv")
        let run = try await run(["import", "in.csv", "--map", "Nope=artist", "--map", "Art=picture"], folder)
        #expect(run.status != 0)
        #expect(run.stderr.contains("error: --map Art=picture: 'picture' is not a field; use one of title, artist, genre, year, cover_url, slug, or params.NAME for one of the album's own fields (--map Art=params.picture)\n"), "\(run.stderr)")
        #expect(run.stderr.contains("error: in.csv:1: --map Nope=artist: the header has no column 'Nope'; use one of its columns (in any case): 'title', 'artist', 'genre', 'year', 'cover_url'\n"), "\(run.stderr)")
    }

    @Test(arguments: [";", "\t"])
    func importsSemicolonAndTabSeparatedFilesAsSpreadsheetsWriteThem(separator: String) async throws {
        let folder = try await starter()
        let rows = [["title", "artist", "genre", "year", "cover_url"], ["Bookends", "Simon, Paul", "Folk", "1968", "covers/b.png"], ["Heroes", "David Bowie", "Rock", "1977", "covers/h.png"]]
        try folder.write(rows.map { $0.joined(separator: separator) }.joined(separator: "\r\n") + "\r\n", to: "in.csv")
        let run = try await run(["import", "in.csv"], folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("imported 2 of 2 albums from csv in.csv\n"))
        let albums = try albums(folder)
        try #require(albums.count == 7)
        #expect(albums[5]["artist"] as? String == "Simon, Paul")
        #expect(albums[6]["year"] as? Int == 1977)
    }

    @Test func aHeaderOfOneColumnSaysHowColumnsMustBeSeparated() async throws {
        let folder = try await starter()
        try folder.write("title|artist|genre|year|cover_url\nB|A|Pop|1992|covers/a.png\n", to: "in.csv")
        let run = try await run(["import", "in.csv"], folder)
        #expect(run.status != 0)
        #expect(run.stderr.hasPrefix("error: in.csv:1: the header row is a single column, 'title|artist|genre|year|cover_url'; columns must be separated by commas, semicolons or tabs, so save the file with one of them\n"), "\(run.stderr)")
    }

    @Test func aBadYearDoesNotHideTheRowsOtherFaults() async throws {
        let folder = try await starter()
        try folder.write("Artist,Title,Genre,Year,Cover,Slug\nA,,,soon,,Bad Slug\nB,C,,,d.png,\n", to: "in.csv")
        let run = try await run(["import", "in.csv"], folder)
        #expect(run.status != 0)
        #expect(run.stderr == """
            error: in.csv:2: row 1: title is empty; fill it in
            error: in.csv:2: row 1: genre is empty; fill it in
            error: in.csv:2: row 1: cover is empty; fill it in (for artwork not ready yet, name one shared image, such as covers/coming-soon.jpg)
            error: in.csv:2: row 1: the year "soon" is not a year; write it as 1999 or a date such as 1999-05-01
            error: in.csv:2: row 1: slug "Bad Slug" is not lowercase ASCII letters, digits and dashes; try "bad-slug"
            error: in.csv:3: row 2: genre is empty; fill it in
            error: in.csv:3: row 2: year is empty; fill it in
            error: nothing was imported
            error: import with --skip-invalid to leave out the 2 rows with faults and import the rest

            """)
    }

    /// Spreadsheet programs write rows of empty fields below the data (rows once formatted or
    /// cleared): they hold no album, so they are left out, and said to be.
    @Test func skipsRowsOfOnlyEmptyFieldsAndSaysSo() async throws {
        let folder = try await starter()
        try folder.write("Artist,Title,Genre,Year,Cover\nA,B,C,2000,d.png\n,,,,\nE,F,G,2001,h.png\n\"\", ,,,\n", to: "in.csv")
        let run = try await run(["import", "in.csv"], folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == """
            skipped row 2 (line 3): every field is empty
            skipped row 4 (line 5): every field is empty
            added row 1 (line 2) as album 6: "B" by A
            added row 3 (line 4) as album 7: "F" by E
            imported 2 of 2 albums from csv in.csv

            """)
        #expect(try albums(folder).count == 7)
    }

    /// A file with a header row and no albums is most often the wrong export: it is said in
    /// words, not as "imported 0 of 0", and nothing is recorded to undo.
    @Test func aFileWithNoAlbumsSaysSo() async throws {
        let folder = try await starter()
        try folder.write("Artist,Title,Genre,Year,Cover\n,,,,\n", to: "in.csv")
        try folder.write("{\"version\": 1, \"albums\": []}", to: "in.json")
        let before = try folder.read("site/content/albums.json")
        let csv = try await run(["import", "in.csv"], folder)
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stdout == "skipped row 1 (line 2): every field is empty\nin.csv holds no albums under its header row; nothing was imported\n")
        let json = try await run(["import", "in.json"], folder)
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout == "in.json holds no albums; nothing was imported\n")
        #expect(try folder.read("site/content/albums.json") == before)
        #expect(try await run(["undo"], folder).stderr.contains("there is nothing to undo"))
    }

    @Test func dryRunWritesNothing() async throws {
        let folder = try await starter()
        try folder.write("Artist,Title,Genre,Year,Cover\nA,B,C,2000,d.png\n", to: "in.csv")
        let before = try folder.read("site/content/albums.json")
        let run = try await run(["import", "in.csv", "--dry-run"], folder)
        #expect(run.stdout == "would add row 1 (line 2) as album 6: \"B\" by A\nwould import 1 of 1 album from csv in.csv; nothing was written (--dry-run)\n")
        #expect(try folder.read("site/content/albums.json") == before)
        #expect(!folder.exists("site/content/.albums.json.history"))
    }

    /// A weekly import of the whole catalogue: albums already in the archive as they are come
    /// to one line; one whose fields differ in the file says how, and which edit takes them.
    @Test func aReimportSaysWhatDiffersFromTheArchive() async throws {
        let folder = try await starter()
        try folder.write("""
        Title,Artist,Genre,Year,Cover
        Best of Bowie,David Bowie,Pop,1992,covers/best-of-bowie.svg
        It's My Life,No Doubt,Pop,2003,covers/its-my-life.svg
        Nothing Like The Sun,Sting,Pop,1999,covers/nothing-like-the-sun.svg
        Staring at the Sun,U2,Rock,2001,covers/staring-at-the-sun.svg
        American Pie,Madonna,Pop,2000,covers/american-pie.svg
        New One,Someone,Pop,2024,covers/new.svg

        """, to: "in.csv")
        let run = try await run(["import", "in.csv"], folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == """
            skipped 4 albums already in the archive as they are
            skipped row 4 (line 5): "Staring at the Sun" by U2 is already album 4 of the archive, which differs: genre "Pop" there, "Rock" here; year 2000 there, 2001 here; `gallery edit 4 --genre Rock --year 2001` takes the file's
            added row 6 (line 7) as album 6: "New One" by Someone
            1 album already in the archive differs in the file; import again with --update to take the file's values
            imported 1 of 6 albums from csv in.csv

            """)
        #expect(run.stderr == "warning: album 6's cover site/content/covers/new.svg does not exist yet; the album shows a placeholder until it does\n")
    }

    /// An import says what add says of the covers it brings, once per cover.
    @Test func anImportWarnsOfCoversOncePerCover() async throws {
        let folder = try await starter()
        try folder.write("""
        Title,Artist,Genre,Year,Cover
        A,X,Pop,2001,covers/soon.jpg
        B,X,Pop,2001,covers/soon.jpg
        C,X,Pop,2001,ftp://host/c.jpg
        D,X,Pop,2001,covers/soon.jpg
        E,X,Pop,2001,covers/best-of-bowie.svg

        """, to: "in.csv")
        let run = try await run(["import", "in.csv"], folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == """
            warning: the cover of albums 6–7, 9 (3) site/content/covers/soon.jpg does not exist yet; they show a placeholder until it does
            warning: album 8's cover cannot be used: the scheme 'ftp:' is not supported; use a path relative to content/, a file:// URL inside the site folder, or an http(s):// URL; the album shows a placeholder until it is changed

            """)
    }

    /// A port no server can have: add says so at once, rather than the build finding out.
    @Test func addWarnsOfACoverPortThatDoesNotExist() async throws {
        let folder = try await starter()
        let add = try await run(["add", "--title", "Far", "--artist", "X", "--genre", "Pop", "--year", "2001", "--cover", "http://127.0.0.1:99999/x.png"], folder)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stderr == "warning: album 6's cover cannot be used: 'http://127.0.0.1:99999/x.png' names port 99999, but ports run from 1 to 65535; the album shows a placeholder until it is changed\n")
    }

    @Test func importsOurOwnJSON() async throws {
        let folder = try await starter()
        try folder.write(Fixture.archive([Fixture.album("New One", "Someone"), Fixture.album("Best of Bowie", "DAVID BOWIE")]), to: "more.json")
        let run = try await run(["import", "more.json"], folder)
        #expect(run.status == 0)
        #expect(run.stdout.contains("skipped album 2 of the file: \"Best of Bowie\" by DAVID BOWIE is already album 1 of the archive"))
        // The number an added album has is the archive's, which edit and delete take, not the file's.
        #expect(run.stdout.contains("added album 1 of the file as album 6: \"New One\" by Someone\n"), "\(run.stdout)")
        #expect(try albums(folder).count == 6)
    }

    @Test func importsTheIOSAppsKeyedArchive() async throws {
        let folder = try await starter()
        let data = try BlueLibrary.Album.archive([
            BlueLibrary.Album(title: "Heathen", artist: "David Bowie", genre: "Rock", coverUrl: "https://example.org/heathen.png", year: "2002"),
            BlueLibrary.Album(title: "Rock Steady", artist: "No Doubt", genre: "Pop", coverUrl: "https://example.org/rs.png", year: "2001"),
            BlueLibrary.Album(title: "Best of Bowie", artist: "David Bowie", genre: "Pop", coverUrl: "x", year: "1992"),
        ])
        try data.write(to: folder.url.appending(path: "albums.bin"))
        let run = try await run(["import", "albums.bin"], folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("imported 2 of 3 albums from keyed archive albums.bin\n"))
        let albums = try albums(folder)
        #expect(albums.count == 7)
        #expect(albums[5]["title"] as? String == "Heathen")
        #expect(albums[5]["year"] as? Int == 2002)
        #expect(albums[6]["cover_url"] as? String == "https://example.org/rs.png")
    }

    @Test func refusesBadFilesNamingTheRowOrField() async throws {
        let folder = try await starter()
        let before = try folder.read("site/content/albums.json")
        let cases: [(name: String, content: Data, message: String)] = [
            ("empty.csv", Data(), "empty.csv: the file is empty; nothing to import"),
            ("quote.csv", Data("Artist,Title,Genre,Year,Cover\nA,\"B,C,2000,d\n".utf8), "quote.csv:2: malformed CSV: a quoted field that starts here is never closed"),
            ("fields.csv", Data("Artist,Title,Genre,Year,Cover\nA,B,C,2000\n".utf8), "fields.csv:2: row 1: this row has 4 fields but the header has 5"),
            ("types.csv", Data("Artist,Title,Genre,Year,Cover\nA,B,C,soon,d\nE,,F,1999,g\n".utf8), "types.csv:2: row 1: the year \"soon\" is not a year"),
            ("types.json", Data("{\"version\": 1, \"albums\": [{\"title\": 5, \"artist\": \"A\", \"genre\": \"G\", \"year\": 1999, \"cover_url\": \"c\"}]}".utf8), "types.json:1:37: error: album 1: \"title\" must be a string, not a number"),
            ("ghosts.md", Data("---\ntitle: \"Ghosts\"\nartist: Ada Kim\n---\nLiner notes\n".utf8), "ghosts.md: this is a page with front matter (as Hugo's content/*.md), which gallery does not read; import JSON, CSV with a header row"),
            ("albums.yaml", Data("- title: Ghosts\n  artist: Ada Kim\n".utf8), "albums.yaml: this is YAML or TOML, which gallery does not read"),
            ("plain.plist", try PropertyListSerialization.data(fromPropertyList: ["not": "albums"], format: .binary, options: 0), "plain.plist: not a keyed archive"),
            ("strings.bin", try NSKeyedArchiver.archivedData(withRootObject: ["just", "strings"] as NSArray, requiringSecureCoding: false), "strings.bin: album 1 is not an Album object"),
            ("dict.bin", try NSKeyedArchiver.archivedData(withRootObject: ["a": "b"] as NSDictionary, requiringSecureCoding: false), "strings.bin"),
        ]
        for item in cases {
            try item.content.write(to: folder.url.appending(path: item.name))
            let run = try await run(["import", item.name], folder)
            #expect(run.status != 0, "\(item.name) was accepted")
            if item.name != "dict.bin" {
                #expect(run.stderr.contains(item.message), "\(item.name): \(run.stderr)")
            } else {
                #expect(run.stderr.contains("dict.bin: this keyed archive's root object is not an array of albums"), "\(run.stderr)")
            }
        }
        let types = try await run(["import", "types.csv"], folder)
        #expect(types.stderr.contains("types.csv:3: row 2: title is empty; fill it in"))
        #expect(types.stderr.contains("error: nothing was imported\nerror: import with --skip-invalid to leave out the "), "\(types.stderr)")
        #expect(try folder.read("site/content/albums.json") == before)
    }
}
