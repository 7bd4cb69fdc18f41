import Foundation
import Testing

/// `gallery undo` when the archive moved on by hand, and what the history records.
@Suite struct UndoCommandTests: StarterSiteTests {
    /// `gallery redo` makes again, newest first, what undo took back (an import of 800 albums
    /// undone once too often is not lost), each exactly as it was; a new change forgets them.
    @Test func redoMakesAgainWhatUndoTookBack() async throws {
        let folder = try await starter()
        let archive = { try folder.read("site/content/albums.json") }
        #expect(try await run(["redo"], folder).stderr == "error: there is nothing to redo: `gallery redo` makes again what `gallery undo` took back, until the next change\n")
        // A delete that pins a twin, an import that adds and updates, an edit.
        #expect(try await run(["add", "--title", "Pop", "--artist", "Sting", "--genre", "Pop", "--year", "2000", "--cover", "c.png"], folder).status == 0)
        #expect(try await run(["add", "--title", "Pop", "--artist", "Sting", "--genre", "Pop", "--year", "2001", "--cover", "c.png"], folder).status == 0)
        var states = [try archive()]
        #expect(try await run(["delete", "6"], folder).stdout.contains("keeps that page"))
        states.append(try archive())
        try folder.write("Title,Artist,Genre,Year,Cover\nBest of Bowie,David Bowie,Rock,1992,covers/best-of-bowie.svg\nNew,X,Pop,2020,c.png\n", to: "in.csv")
        #expect(try await run(["import", "in.csv", "--update"], folder).status == 0)
        states.append(try archive())
        #expect(try await run(["edit", "2", "--year", "1990"], folder).status == 0)
        states.append(try archive())
        for state in states.reversed().dropFirst() {
            #expect(try await run(["undo"], folder).status == 0)
            #expect(try archive() == state)
        }
        let redone = try await run(["redo"], folder)
        #expect(redone.stdout == "redid: deleted album 6, \"Pop\" by Sting; its namesake at albums/sting-pop-2/ keeps that page as its own slug\n", "\(redone.stdout)")
        #expect(try archive() == states[1])
        #expect(try await run(["redo"], folder).stdout == "redid: imported 1 album and updated 1\n")
        #expect(try archive() == states[2])
        // A new change forgets the edit that was undone.
        #expect(try await run(["edit", "3", "--genre", "Jazz"], folder).status == 0)
        #expect(try await run(["redo"], folder).status == 1)
        #expect(try await run(["undo"], folder).status == 0)
        #expect(try archive() == states[2])
        // An album edited by hand since the undo cannot be redone; nothing changes, and the
        // message says what to do.
        #expect(try await run(["edit", "1", "--year", "1993"], folder).status == 0)
        #expect(try await run(["undo"], folder).status == 0)
        let handEdited = try archive().replacingOccurrences(of: "\"title\": \"Best of Bowie\"", with: "\"title\": \"Best of Bowie (Remastered)\"")
        try folder.write(handEdited, to: "site/content/albums.json")
        let blocked = try await run(["redo"], folder)
        #expect(blocked.status == 1)
        #expect(blocked.stderr == """
            error: cannot redo edited album 1, "Best of Bowie" by David Bowie: "Best of Bowie" by David Bowie is no longer in the archive as it was (was it edited by hand, or was the command that changed it stopped before it saved?)
            error: nothing was changed; make the change again by hand if you still want it (the next change forgets what was undone)

            """, "\(blocked.stderr)")
        #expect(try archive() == handEdited)
    }

    /// A change that can no longer be reversed (its album was edited by hand) blocks every undo
    /// until `--skip` forgets it; the archive keeps the hand edit, and the next undo reaches the
    /// change before.
    /// `gallery delete 2 4` removes what `gallery list` showed as 2 and 4 (a loop of single
    /// deletes, counting up, removed the wrong ones), as one change: one undo brings both back.
    @Test func oneDeleteOfSeveralAlbumsIsOneChange() async throws {
        let folder = try await starter()
        let before = try folder.read("site/content/albums.json")
        let titles = { () throws -> [String] in
            let archive = try JSONSerialization.jsonObject(with: Data(folder.read("site/content/albums.json").utf8)) as? [String: Any]
            return (archive?["albums"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        }
        let deleted = try await run(["delete", "2", "sting-nothing-like-the-sun", "5"], folder)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout == "deleted album 5, \"American Pie\" by Madonna; deleted album 3, \"Nothing Like The Sun\" by Sting; deleted album 2, \"It's My Life\" by No Doubt\n")
        #expect(try titles() == ["Best of Bowie", "Staring at the Sun"])
        let undone = try await run(["undo"], folder)
        #expect(undone.status == 0)
        #expect(undone.stdout.hasPrefix("undid: deleted album 5"))
        #expect(try folder.read("site/content/albums.json") == before, "one undo brings all three back, in place")
        #expect(try await run(["redo"], folder).status == 0)
        #expect(try titles() == ["Best of Bowie", "Staring at the Sun"])
        #expect(try await run(["undo"], folder).status == 0)
        // An album named twice is refused, and nothing changes.
        let twice = try await run(["delete", "3", "sting-nothing-like-the-sun"], folder)
        #expect(twice.status != 0)
        #expect(twice.stderr == "error: 3 and sting-nothing-like-the-sun both name album 3; name each album once; nothing was changed\n")
        #expect(try folder.read("site/content/albums.json") == before)
        let none = try await run(["delete"], folder)
        #expect(none.status != 0)
    }

    @Test func skipForgetsAChangeThatCanNoLongerBeUndone() async throws {
        let folder = try await starter()
        #expect(try await run(["delete", "1"], folder).status == 0)
        #expect(try await run(["add", "--title", "Z", "--artist", "Z", "--genre", "G", "--year", "2000", "--cover", "c.png"], folder).status == 0)
        let edited = try folder.read("site/content/albums.json").replacingOccurrences(of: "\"title\": \"Z\"", with: "\"title\": \"Zed\"")
        try folder.write(edited, to: "site/content/albums.json")
        for _ in 0..<2 {
            let blocked = try await run(["undo"], folder)
            #expect(blocked.status != 0)
            #expect(blocked.stderr == """
                error: cannot undo the most recent change (added "Z" by Z as album 5): "Z" by Z is no longer in the archive as it was (was it edited by hand, or was the command that changed it stopped before it saved?)
                error: `gallery undo --skip` forgets that change and leaves the archive as it is, so the next undo reaches the change before it

                """)
        }
        let skip = try await run(["undo", "--skip"], folder)
        #expect(skip.status == 0, "\(skip.stderr)")
        #expect(skip.stdout == "skipped: added \"Z\" by Z as album 5; the archive was not changed\n")
        #expect(try folder.read("site/content/albums.json") == edited)
        let undo = try await run(["undo"], folder)
        #expect(undo.stdout == "undid: deleted album 1, \"Best of Bowie\" by David Bowie\n")
        #expect(try folder.read("site/content/albums.json").contains("\"title\": \"Zed\""))
        #expect(try await run(["undo", "--skip"], folder).stderr == "error: there is nothing to undo\n")
        let help = try await GalleryBinary.run(["undo", "--help"], in: folder.url)
        #expect(help.stdout.contains("--skip"))
    }

    /// Keys of an album that gallery does not use are the owner's data: no command drops them.
    @Test func libraryCommandsKeepTheKeysGalleryDoesNotUse() async throws {
        let folder = try await starter()
        let archive = try folder.read("site/content/albums.json")
        let marked = archive.replacingOccurrences(of: "\"title\": \"Staring at the Sun\",", with: "\"title\": \"Staring at the Sun\", \"label\": \"Island\", \"tracks\": [1, 2],")
        #expect(marked != archive)
        try folder.write(marked, to: "site/content/albums.json")
        #expect(try await run(["add", "--title", "Z", "--artist", "Z", "--genre", "G", "--year", "2000", "--cover", "c.png"], folder).status == 0)
        #expect(try await run(["edit", "u2-staring-at-the-sun", "--year", "2001"], folder).status == 0)
        #expect(try await run(["delete", "u2-staring-at-the-sun"], folder).status == 0)
        #expect(try !folder.read("site/content/albums.json").contains("Island"))
        #expect(try await run(["undo"], folder).status == 0)
        let kept = try folder.read("site/content/albums.json")
        #expect(kept.contains("      \"year\": 2001,\n      \"cover_url\": \"covers/staring-at-the-sun.svg\",\n      \"label\": \"Island\",\n      \"tracks\": [1,2]\n"), "\(kept)")
    }

    /// Top-level keys of the archive are the owner's data too: every command keeps them, in
    /// order, and the build warns of each with its line and column.
    @Test func libraryCommandsKeepTheArchivesTopLevelKeys() async throws {
        let folder = try await starter()
        let archive = try folder.read("site/content/albums.json")
        let marked = archive.replacingOccurrences(of: "{\n  \"version\": 1,\n", with: "{\n  \"comment\": \"my note\",\n  \"version\": 1,\n  \"label\": {\"name\": \"Island\"},\n")
        #expect(marked != archive)
        try folder.write(marked, to: "site/content/albums.json")
        let kept = "{\n  \"version\": 1,\n  \"comment\": \"my note\",\n  \"label\": {\"name\":\"Island\"},\n  \"albums\": [\n"
        try folder.write("{\"version\": 1, \"albums\": [{\"title\": \"Q\", \"artist\": \"Q\", \"genre\": \"G\", \"year\": 2000, \"cover_url\": \"c.png\"}]}", to: "j.json")
        let commands = [
            ["add", "--title", "Z", "--artist", "Z", "--genre", "G", "--year", "2000", "--cover", "c.png"],
            ["edit", "6", "--year", "2001"], ["delete", "1"], ["import", "j.json"],
            ["undo"], ["undo"], ["undo"], ["undo"],
        ]
        for command in commands {
            let run = try await run(command, folder)
            #expect(run.status == 0, "\(command): \(run.stderr)")
            #expect(try folder.read("site/content/albums.json").hasPrefix(kept), "\(command)")
        }
        let build = try await GalleryBinary.run(["build", "-q"], in: folder.url.appending(path: "site"))
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stderr.contains("content/albums.json:3:3: warning: the archive has an unknown top-level key \"comment\", which is ignored\n"), "\(build.stderr)")
        #expect(build.stderr.contains("content/albums.json:4:3: warning: the archive has an unknown top-level key \"label\", which is ignored\n"), "\(build.stderr)")
    }

    @Test func anEditThatChangesNothingIsSaidAndNotRecorded() async throws {
        let folder = try await starter()
        let before = try folder.read("site/content/albums.json")
        let same = try await run(["edit", "1", "--year", "1992", "--title", "Best of Bowie"], folder)
        #expect(same.status == 0)
        #expect(same.stdout == "album 1, \"Best of Bowie\" by David Bowie, already has these values; nothing was changed\n")
        #expect(same.stderr.isEmpty)
        #expect(try folder.read("site/content/albums.json") == before)
        #expect(!folder.exists("site/content/albums.json.bak"))
        #expect(try await run(["undo"], folder).stderr == "error: there is nothing to undo\n")
    }
}
