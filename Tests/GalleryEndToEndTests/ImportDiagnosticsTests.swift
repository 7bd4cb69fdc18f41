import Foundation
import Testing

/// What `gallery import` says about a file: every fault in one run (malformed rows, bad fields,
/// slugs repeated in the file or already the archive's), and the columns it reads or leaves out.
@Suite struct ImportDiagnosticsTests: StarterSiteTests {
    @Test func refusesYearsThatAreNotAYearOrAnISODate() async throws {
        let folder = try await starter()
        let before = try folder.read("site/content/albums.json")
        try folder.write("Artist,Title,Genre,Year,Cover\nA,B,G,1980-13-45,c.png\nC,D,G,May 1980,c.png\nE,F,G,1982abc,c.png\nH,I,G,1999-02-29,c.png\n", to: "in.csv")
        let run = try await run(["import", "in.csv"], folder)
        #expect(run.status != 0)
        #expect(run.stderr == """
            error: in.csv:2: row 1: the year "1980-13-45" is not a year; write it as 1999 or a date such as 1999-05-01
            error: in.csv:3: row 2: the year "May 1980" is not a year; write it as 1999 or a date such as 1999-05-01
            error: in.csv:4: row 3: the year "1982abc" is not a year; write it as 1999 or a date such as 1999-05-01
            error: in.csv:5: row 4: the year "1999-02-29" is not a year; write it as 1999 or a date such as 1999-05-01
            error: nothing was imported
            error: import with --skip-invalid to leave out the 4 rows with faults and import the rest

            """)
        #expect(try folder.read("site/content/albums.json") == before)
    }

    /// `-` imports standard input, and a pipe given as a file (`<(…)`, `/dev/stdin`) is read to
    /// its end; a path that is no file says what it is.
    @Test func importsStandardInputAndPipes() async throws {
        let folder = try await starter()
        let shell = URL(fileURLWithPath: "/bin/sh")
        let gallery = GalleryBinary.url.path
        let fromStdin = try await GalleryBinary.run(["-c", "printf 'Artist,Title,Genre,Year,Cover\\nP,Q,Pop,2000,covers/q.jpg\\n' | \"$0\" import - --site site", gallery], in: folder.url, binary: shell)
        #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
        #expect(fromStdin.stdout.hasSuffix("imported 1 of 1 album from csv standard input\n"), "\(fromStdin.stdout)")
        let fromPipe = try await GalleryBinary.run(["-c", "printf '{\"version\": 1, \"albums\": [{\"title\": \"S\", \"artist\": \"R\", \"genre\": \"Pop\", \"year\": 2001, \"cover_url\": \"covers/s.jpg\"}]}' | \"$0\" import /dev/stdin --site site", gallery], in: folder.url, binary: shell)
        #expect(fromPipe.status == 0, "\(fromPipe.stderr)")
        #expect(try folder.read("site/content/albums.json").contains("\"title\": \"S\""))
        // What `gallery list --json` writes (an array), piped from one site into another, as the README shows.
        #expect(try await GalleryBinary.run(["init", "other"], in: folder.url).status == 0)
        try folder.write("{\"version\": 1, \"albums\": []}\n", to: "other/content/albums.json")
        let listed = try await GalleryBinary.run(["-c", "\"$0\" list --json --site site | \"$0\" import - --site other", gallery], in: folder.url, binary: shell)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.hasSuffix("imported 7 of 7 albums from json standard input\n"), "\(listed.stdout)")
        let empty = try await GalleryBinary.run(["-c", "\"$0\" import - --site site </dev/null", gallery], in: folder.url, binary: shell)
        #expect(empty.status != 0)
        #expect(empty.stderr.hasPrefix("error: <stdin>: the file is empty; nothing to import\n"), "\(empty.stderr)")
        let missing = try await run(["import", "nowhere.csv"], folder)
        #expect(missing.stderr.hasPrefix("error: nowhere.csv: there is no such file; check the path\n"), "\(missing.stderr)")
        let aFolder = try await run(["import", "site"], folder)
        #expect(aFolder.stderr.hasPrefix("error: site: this is a folder; name the file to import\n"), "\(aFolder.stderr)")
        let unnamed = try await run(["import", ""], folder)
        #expect(unnamed.status != 0)
        #expect(unnamed.stderr.contains("FILE is empty; name the CSV or JSON file to import, or - for standard input."), "\(unnamed.stderr)")
        // A device never ends: refused at once (it was read until memory ran out).
        let device = try await run(["import", "/dev/zero"], folder)
        #expect(device.status != 0)
        #expect(device.stderr.hasPrefix("error: /dev/zero: this is a device, not a file; name the file to import (or pipe it in with gallery import -)\n"), "\(device.stderr)")
    }

    /// A row with a fault of its own refuses the file, with the way to import the rest; with
    /// `--skip-invalid` it is left out, named, and the other rows are imported.
    @Test func skipInvalidLeavesOutTheFaultyRowsAndImportsTheRest() async throws {
        let folder = try await starter()
        let before = try folder.read("site/content/albums.json")
        try folder.write("Artist,Title,Genre,Year,Cover\nA,B,Pop,2000,covers/x.jpg\nC,D,Pop,,covers/x.jpg\nE,F,Pop,1999,covers/x.jpg\n", to: "in.csv")
        let refused = try await run(["import", "in.csv"], folder)
        #expect(refused.status != 0)
        #expect(refused.stderr == "error: in.csv:3: row 2: year is empty; fill it in\nerror: nothing was imported\nerror: import with --skip-invalid to leave out the 1 row with faults and import the rest\n")
        #expect(try folder.read("site/content/albums.json") == before)
        let skipped = try await run(["import", "in.csv", "--skip-invalid"], folder)
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stderr.hasPrefix("warning: in.csv:3: row 2: year is empty; fill it in; left out (--skip-invalid)\n"), "\(skipped.stderr)")
        #expect(skipped.stdout.hasSuffix("left out 1 row with faults (--skip-invalid; each is named above)\nimported 2 of 2 albums from csv in.csv\n"), "\(skipped.stdout)")
        #expect(try folder.read("site/content/albums.json").contains("\"title\": \"F\""))
        #expect(try !folder.read("site/content/albums.json").contains("\"title\": \"D\""))
        // A row whose slug is an album's page already is a fault the flag leaves out too: the
        // hint counted it not, and following it still refused the file for that row.
        try folder.write("Artist,Title,Genre,Year,Cover,Slug\nG,H,Pop,2001,covers/x.jpg,no-doubt-its-my-life\nI,J,Pop,2002,covers/x.jpg,\nK,L,Pop,May 99,covers/x.jpg,\n", to: "taken.csv")
        let takenRefused = try await run(["import", "taken.csv"], folder)
        #expect(takenRefused.status != 0)
        #expect(takenRefused.stderr.hasSuffix("error: import with --skip-invalid to leave out the 2 rows with faults and import the rest\n"), "\(takenRefused.stderr)")
        let takenSkipped = try await run(["import", "taken.csv", "--skip-invalid"], folder)
        #expect(takenSkipped.status == 0, "\(takenSkipped.stderr)")
        #expect(takenSkipped.stderr.contains("no-doubt-its-my-life"), "\(takenSkipped.stderr)")
        #expect(takenSkipped.stderr.contains("; left out (--skip-invalid)\n"), "\(takenSkipped.stderr)")
        #expect(takenSkipped.stdout.hasSuffix("left out 2 rows with faults (--skip-invalid; each is named above)\nimported 1 of 1 album from csv taken.csv\n"), "\(takenSkipped.stdout)")
        let archive = try folder.read("site/content/albums.json")
        #expect(archive.contains("\"title\": \"J\"") && !archive.contains("\"title\": \"H\"") && !archive.contains("\"title\": \"L\""))
        // A JSON file is read whole: the flag says it cannot help, where it was silently no use.
        try folder.write(#"[{"title": "X", "artist": "Y", "genre": "Pop", "year": "2024", "cover_url": "covers/x.jpg"}]"#, to: "in.json")
        let json = try await run(["import", "in.json", "--skip-invalid"], folder)
        #expect(json.status != 0)
        #expect(json.stderr.hasSuffix("error: nothing was imported\nerror: --skip-invalid leaves out CSV rows with faults; a JSON file is read whole, so fix the albums named above\n"), "\(json.stderr)")
    }

    /// A row with the wrong number of fields is one fault; the rows around it are still checked.
    @Test func aMalformedRowDoesNotHideTheOtherRowsFaults() async throws {
        let folder = try await starter()
        try folder.write("Artist,Title,Genre,Year,Cover\nA,,G,1999,c.png\nB,C,G,1999,c.png,extra\nD,E,G,soon,c.png\nF,G,H,2000\n", to: "in.csv")
        for arguments in [["import", "in.csv"], ["import", "in.csv", "--dry-run"]] {
            let run = try await run(arguments, folder)
            #expect(run.status != 0)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr == """
                error: in.csv:2: row 1: title is empty; fill it in
                error: in.csv:3: row 2: this row has 6 fields but the header has 5; put a field that holds a comma in double quotes, or name the extra column in the header
                error: in.csv:4: row 3: the year "soon" is not a year; write it as 1999 or a date such as 1999-05-01
                error: in.csv:5: row 4: this row has 4 fields but the header has 5; write every field, leaving a missing one empty (,,)
                error: nothing was imported
                error: import with --skip-invalid to leave out the 4 rows with faults and import the rest

                """, "\(arguments)")
        }
    }

    /// Slugs taken in the archive and slugs repeated in the file come in the same run as the
    /// rows' other faults, each naming the file's rows, never album numbers that do not exist.
    @Test func everySlugFaultComesInOneRunNamingTheFilesRows() async throws {
        let folder = try await starter()
        let before = try folder.read("site/content/albums.json")
        try folder.write("""
            Artist,Title,Genre,Year,Cover,Slug
            A,B,G,1999,c.png,x
            C,D,G,1999,c.png,david-bowie-best-of-bowie
            E,F,G,1999,c.png,x
            G,,G,1999,c.png,x

            """, to: "in.csv")
        for arguments in [["import", "in.csv"], ["import", "in.csv", "--dry-run"]] {
            let run = try await run(arguments, folder)
            #expect(run.status != 0)
            #expect(run.stderr == """
                error: in.csv:3: row 2: slug "david-bowie-best-of-bowie" is already the page address of album 1, "Best of Bowie" by David Bowie; choose another slug
                error: in.csv:4: row 3: slug "x" is also row 1's (line 2); slugs must be unique
                error: in.csv:5: row 4: title is empty; fill it in
                error: in.csv:5: row 4: slug "x" is also row 1's (line 2); slugs must be unique
                error: nothing was imported
                error: import with --skip-invalid to leave out the 3 rows with faults and import the rest

                """, "\(arguments)")
        }
        try folder.write("Artist,Title,Genre,Year,Cover,Slug\nA,B,G,1999,c.png,x\nC,D,G,1999,c.png,x\n", to: "in.csv")
        let repeated = try await run(["import", "in.csv"], folder)
        #expect(repeated.stderr == "error: in.csv:3: row 2: slug \"x\" is also row 1's (line 2); slugs must be unique\nerror: nothing was imported\nerror: import with --skip-invalid to leave out the 1 row with faults and import the rest\n")
        #expect(try folder.read("site/content/albums.json") == before)
    }

    /// Two columns for one field: the first is read, and the warning says how to choose; a
    /// column for no field is noted once. Neither stops the import.
    @Test func saysWhichColumnIsReadAndWhichAreLeftOut() async throws {
        let folder = try await starter()
        try folder.write("Artist,Title,Album,Genre,Year,Cover,Notes,Label\nA,T,Al,G,1999,covers/best-of-bowie.svg,n,l\n", to: "in.csv")
        for arguments in [["import", "in.csv", "--dry-run"], ["import", "in.csv"]] {
            let run = try await run(arguments, folder)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr == """
                warning: in.csv:1: the columns 'Title' and 'Album' both fill title; 'Title' is read; pass --map Album=title to read 'Album' instead
                note: in.csv:1: the columns 'Notes' and 'Label' fill no field and are not imported; --map COLUMN=FIELD reads one into a field

                """, "\(arguments)")
        }
        #expect(try folder.read("site/content/albums.json").contains("\"title\": \"T\""))

        let chosen = try await run(["import", "in.csv", "--map", "Album=title", "--allow-duplicates"], folder)
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stderr == "note: in.csv:1: the columns 'Notes' and 'Label' fill no field and are not imported; --map COLUMN=FIELD reads one into a field\n")
        #expect(try folder.read("site/content/albums.json").contains("\"title\": \"Al\""))

        try folder.write("Artist,Title,Genre,Year,Cover,Title,\nA,T2,G,1999,covers/best-of-bowie.svg,Other,\n", to: "twice.csv")
        let twice = try await run(["import", "twice.csv"], folder)
        #expect(twice.status == 0, "\(twice.stderr)")
        #expect(twice.stderr == """
            warning: twice.csv:1: columns 2 and 6 are both named 'Title'; column 2 is read as title; to read another, rename it in the header and pass --map NEWNAME=title
            note: twice.csv:1: column 7 (no name) fills no field and is not imported; --map COLUMN=FIELD reads one into a field

            """)
        #expect(try folder.read("site/content/albums.json").contains("\"title\": \"T2\""))
    }

    /// A Draft column (Hugo's, kept in an export) is left out like any other, and the note says
    /// what that means: the row is published.
    @Test func aDraftColumnSaysItsRowsArePublished() async throws {
        let folder = try await starter()
        try folder.write("Artist,Title,Genre,Year,Cover,Draft\nA,Unreleased,G,2026,covers/best-of-bowie.svg,true\n", to: "in.csv")
        let run = try await run(["import", "in.csv", "--dry-run"], folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "note: in.csv:1: the column 'Draft' fills no field and is not imported; --map COLUMN=FIELD reads one into a field (gallery has no drafts or publish dates: every row is imported and published whatever its 'Draft' says, so leave unreleased albums out of the file)\n", "\(run.stderr)")
    }

    @Test func twoMapsForOneFieldAreRefused() async throws {
        let folder = try await starter()
        try folder.write("Artist,Record,Name,Genre,Year,Cover\nA,R,N,G,1999,c.png\n", to: "in.csv")
        let run = try await run(["import", "in.csv", "--map", "Record=title", "--map", "Name=title"], folder)
        #expect(run.status != 0)
        #expect(run.stderr == "error: --map Name=title and --map Record=title both fill title; keep one\nerror: nothing was imported\n")
    }

    /// --map is CSV's: given with a JSON file, it is said not to have been used, both when the
    /// file is refused (the keys --map meant to rename are missing) and when it is imported.
    @Test func aMapGivenWithJSONIsSaidNotToHaveBeenUsed() async throws {
        let folder = try await starter()
        try folder.write(#"{"version": 1, "albums": [{"title": "G", "artist": "A", "genres": ["Jazz"], "year": 2000, "cover": "x.png"}]}"#, to: "hugo.json")
        let refused = try await run(["import", "hugo.json", "--map", "cover=cover_url", "--map", "genres=genre"], folder)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("error: --map reads the columns of a CSV file; hugo.json is json, so it is ignored: its albums need the archive's own keys (title, artist, genre, year, cover_url)\nerror: nothing was imported\n"), "\(refused.stderr)")
        try folder.write(Fixture.archive([Fixture.album("New One", "Someone")]), to: "fine.json")
        let imported = try await run(["import", "fine.json", "--map", "Cover=cover_url"], folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("warning: --map reads the columns of a CSV file; fine.json is json, so it is ignored"), "\(imported.stderr)")
    }

    /// A fault many rows share is told for its first three rows and then counted: a back
    /// catalogue of 1,551 rows without artwork gave 1,551 lines, in which the year the label
    /// could fix was lost. An empty cover says how artwork not ready yet is done.
    @Test func aFaultManyRowsShareIsCountedAfterThreeAndTheOthersStayVisible() async throws {
        let folder = try await starter()
        let rows = (1...9).map { "Artist \($0),Title \($0),Pop,\($0 == 5 ? "" : "2000"),\($0 == 5 ? "covers/x.jpg" : "")" }
        try folder.write("Artist,Title,Genre,Year,Cover\n" + rows.joined(separator: "\n") + "\n", to: "in.csv")
        let run = try await run(["import", "in.csv"], folder)
        #expect(run.status != 0)
        let empty = "cover is empty; fill it in (for artwork not ready yet, name one shared image, such as covers/coming-soon.jpg)"
        #expect(run.stderr == """
            error: in.csv:2: row 1: \(empty)
            error: in.csv:3: row 2: \(empty)
            error: in.csv:4: row 3: \(empty)
            error: in.csv: and 5 more rows: \(empty)
            error: in.csv:6: row 5: year is empty; fill it in
            error: nothing was imported
            error: import with --skip-invalid to leave out the 9 rows with faults and import the rest

            """, "\(run.stderr)")
    }

    /// A cover named as on Windows, or in another case than its file, is told so by add (and
    /// the build), where both said only that the file does not exist.
    @Test func aWindowsPathOrAnotherCaseIsToldSo() async throws {
        let folder = try await starter()
        let add = ["add", "--artist", "A", "--genre", "Pop", "--year", "2000", "--title"]
        let slash = try await run(add + ["One", "--cover", "covers\\its-my-life.svg"], folder)
        #expect(slash.stderr.contains("does not exist yet; a path separates its folders with /, not \\: write covers/its-my-life.svg;"), "\(slash.stderr)")
        let drive = try await run(add + ["Two", "--cover", "C:\\Users\\me\\red.jpg"], folder)
        #expect(drive.stderr.contains("is a path on a Windows computer: copy the image into content/covers/"), "\(drive.stderr)")
        let cased = try await run(add + ["Three", "--cover", "covers/Its-My-Life.svg"], folder)
        #expect(cased.stderr.contains("does not exist yet; its-my-life.svg is there, a name that differs in case, which counts here"), "\(cased.stderr)")
        let build = try await run(["build"], folder)
        #expect(build.stderr.contains("no such file (site/content/covers/Its-My-Life.svg); its-my-life.svg is there, a name that differs in case"), "\(build.stderr)")
    }

    /// add warns of a cover the build will refuse for its size (read from its header against
    /// [thumbnails] max_pixels), as it warns of one that is no image; it said nothing.
    @Test func addWarnsOfACoverTooLargeForTheBuild() async throws {
        let folder = try await starter()
        let config = try folder.read("site/gallery.toml")
        try folder.write(config.replacingOccurrences(of: "max_pixels = 67108864", with: "max_pixels = 1000"), to: "site/gallery.toml")
        let add = try await run(["add", "--title", "Huge", "--artist", "A", "--genre", "Pop", "--year", "2000", "--cover", "covers/its-my-life.svg"], folder)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stderr.contains("warning: album 6's cover site/content/covers/its-my-life.svg: the image is 600×600 pixels, more than [thumbnails] max_pixels (1000) allows"), "\(add.stderr)")
        try folder.write(config, to: "site/gallery.toml")
        let fine = try await run(["add", "--title", "Fine", "--artist", "A", "--genre", "Pop", "--year", "2000", "--cover", "covers/its-my-life.svg"], folder)
        #expect(fine.status == 0 && !fine.stderr.contains("warning"), "\(fine.stderr)")
    }

    /// A hand edit that breaks the archive's JSON is told where the fix goes, with the copy the
    /// last library command kept to compare with.
    @Test func aBrokenArchiveNamesTheBackupToCompareWith() async throws {
        let folder = try await starter()
        #expect(try await run(["add", "--title", "Kept", "--artist", "A", "--genre", "Pop", "--year", "2000", "--cover", "covers/its-my-life.svg"], folder).status == 0)
        let archive = try folder.read("site/content/albums.json")
        try folder.write(archive.replacingOccurrences(of: "\"genre\": \"Pop\",", with: "\"genre\": \"Pop\""), to: "site/content/albums.json")
        let build = try await run(["build"], folder)
        #expect(build.status != 0)
        #expect(build.stderr.contains("site/content/albums.json:7:21: error: malformed JSON: ',' was expected after the value of \"genre\" (a comma missing at the end of the line?)"), "\(build.stderr)")
        #expect(build.stderr.contains("site/content/albums.json: note: site/content/albums.json.bak is the archive before the last library command changed it, a version that was read well: `diff site/content/albums.json.bak site/content/albums.json` shows the lines changed since"), "\(build.stderr)")
    }

    /// A header that holds two kinds of separator says which one it was read by, also when
    /// that left the columns unfound, which is when it matters.
    @Test func theSeparatorChosenIsToldWhenTheColumnsAreNotFound() async throws {
        let folder = try await starter()
        try folder.write("Title;Artist;Genre;Year;Cover;Formats (LP, CD, MC, DL, SACD, 8-track)\nA;B;Pop;2000;covers/x.jpg;LP\n", to: "in.csv")
        let run = try await run(["import", "in.csv"], folder)
        #expect(run.status != 0)
        #expect(run.stderr.contains("no column for artist"), "\(run.stderr)")
        #expect(run.stderr.contains("error: in.csv:1: read as separated by commas, which the header has most often (5, against 5 semicolons); an Excel first line sep=X names the separator outright"), "\(run.stderr)")
        try folder.write("sep=;\n" + (try folder.read("in.csv")), to: "in.csv")
        let named = try await self.run(["import", "in.csv", "--dry-run"], folder)
        #expect(named.status == 0, "\(named.stderr)")
    }
}
