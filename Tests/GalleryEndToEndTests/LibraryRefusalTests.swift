import Foundation
import Testing

/// What the library commands refuse, and how they say it: a slug another album's page lives
/// under, control characters in the text fields, a position past the end, a folder that is not
/// a site; and that every message carries its own severity, once.
@Suite struct LibraryRefusalTests: StarterSiteTests {
    static let fields = ["--artist", "Q", "--genre", "G", "--year", "2000", "--cover", "covers/best-of-bowie.svg"]

    @Test func anExplicitSlugNeverTakesAnotherAlbumsPageAddress() async throws {
        let folder = try await starter()
        let before = try folder.read("site/content/albums.json")
        let add = try await run(["add", "--title", "Q", "--slug", "sting-nothing-like-the-sun"] + Self.fields, folder)
        #expect(add.status != 0)
        #expect(add.stderr == """
            error: --slug "sting-nothing-like-the-sun" is already the page address of album 3, "Nothing Like The Sun" by Sting; choose another slug
            error: nothing was changed

            """)
        let edit = try await run(["edit", "1", "--slug", "madonna-american-pie"], folder)
        #expect(edit.status != 0)
        #expect(edit.stderr.hasPrefix("error: --slug \"madonna-american-pie\" is already the page address of album 5, \"American Pie\" by Madonna; choose another slug\n"))
        try folder.write("Artist,Title,Genre,Year,Cover,Slug\nA,B,Pop,2000,c.png,new-one\nC,D,Pop,2001,d.png,david-bowie-best-of-bowie\n", to: "in.csv")
        let imported = try await run(["import", "in.csv"], folder)
        #expect(imported.status != 0)
        #expect(imported.stderr.contains("error: in.csv:3: row 2: slug \"david-bowie-best-of-bowie\" is already the page address of album 1, \"Best of Bowie\" by David Bowie; choose another slug\n"), "\(imported.stderr)")
        #expect(try folder.read("site/content/albums.json") == before)

        // An album may pin the slug it already has, and another may then take a free one.
        #expect(try await run(["edit", "5", "--slug", "madonna-american-pie"], folder).status == 0)
        #expect(try await run(["add", "--title", "Q", "--slug", "q-2000"] + Self.fields, folder).status == 0)
        let list = try await run(["list", "--json"], folder)
        let slugs = (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []).compactMap { $0["slug"] as? String }
        #expect(slugs == ["david-bowie-best-of-bowie", "no-doubt-its-my-life", "sting-nothing-like-the-sun", "u2-staring-at-the-sun", "madonna-american-pie", "q-2000"])
    }

    /// An archive its owner made read-only was replaced by the rename every save makes (and
    /// root writes anything): it is left as it is, and the message says how to change it.
    @Test func aReadOnlyArchiveIsLeftAsItIs() async throws {
        let folder = try await starter()
        let archive = folder.url.appending(path: "site/content/albums.json")
        let before = try folder.read("site/content/albums.json")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: archive.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: archive.path) }
        for command in [["add", "--title", "Q"] + Self.fields, ["delete", "1"], ["edit", "1", "--year", "1993"]] {
            let run = try await run(command, folder)
            #expect(run.status != 0, "\(command)")
            #expect(run.stderr.contains("site/content/albums.json: the archive is read-only (mode 444), so it was left as it is; make it writable (chmod u+w site/content/albums.json) to change it\n"), "\(command): \(run.stderr)")
            #expect(try folder.read("site/content/albums.json") == before)
        }
        #expect(try await run(["undo"], folder).stderr.contains("nothing to undo"))
    }

    @Test func aFolderWithoutAnArchiveIsLeftAsItWas() async throws {
        let folder = try TemporaryFolder()
        try folder.write("Artist,Title,Genre,Year,Cover\nA,B,Pop,2000,c.png\n", to: "in.csv")
        let commands: [[String]] = [
            ["add", "--title", "a"] + Self.fields,
            ["edit", "1", "--year", "1999"],
            ["delete", "1"],
            ["import", "in.csv"],
            ["undo"],
            ["undo", "--skip"],
        ]
        for command in commands {
            let run = try await run(command, folder, site: "nowhere/deep")
            #expect(run.status != 0)
            #expect(run.stderr == "nowhere/deep/content/albums.json: error: the site folder nowhere/deep does not exist; check the path, or create a site there with `gallery init nowhere/deep`\n", "\(command[0]): \(run.stderr)")
            #expect(!folder.exists("nowhere"), "\(command[0]) left files behind")
        }
        // An empty folder stays empty, and `gallery init` still takes it.
        try FileManager.default.createDirectory(at: folder.url.appending(path: "empty"), withIntermediateDirectories: true)
        let undo = try await run(["undo"], folder, site: "empty")
        #expect(undo.stderr.contains("there is no album archive here"))
        #expect(folder.files(under: "empty").isEmpty && !folder.exists("empty/content"))
        #expect(try await GalleryBinary.run(["init", "empty"], in: folder.url).status == 0)
    }

    @Test func controlCharactersAreRefusedInTheTextFields() async throws {
        let folder = try await starter()
        let before = try folder.read("site/content/albums.json")
        let cases: [(arguments: [String], message: String)] = [
            (["add", "--title", "T", "--artist", "x\u{1}y", "--genre", "G"], "--artist contains the control character U+0001; remove it"),
            (["add", "--title", "T", "--artist", "a\tb", "--genre", "G"], "--artist contains the control character U+0009 (tab); remove it"),
            (["add", "--title", "T", "--artist", "A", "--genre", "Rock\nPop"], "--genre contains the control character U+000A (line feed); remove it"),
            (["add", "--title", "T", "--artist", "A", "--genre", "G\u{85}"], "--genre contains the control character U+0085; remove it"),
            (["add", "--title", "abc\u{202E}def", "--artist", "A", "--genre", "G"], "--title contains U+202E RIGHT-TO-LEFT OVERRIDE, a bidirectional control that reorders the text around it; remove it (right-to-left text needs none)"),
            (["edit", "1", "--title", "x\u{2066}y"], "--title contains U+2066 LEFT-TO-RIGHT ISOLATE, a bidirectional control that reorders the text around it; remove it (right-to-left text needs none)"),
        ]
        for item in cases {
            let arguments = item.arguments + (item.arguments[0] == "add" ? ["--year", "2000", "--cover", "c.png"] : [])
            let run = try await run(arguments, folder)
            #expect(run.status != 0)
            #expect(run.stderr == "error: \(item.message)\nerror: nothing was changed\n")
        }
        try folder.write("Artist,Title,Genre,Year,Cover\n\"a\tb\",T,Pop,2000,c.png\n", to: "in.csv")
        let csv = try await run(["import", "in.csv"], folder)
        #expect(csv.status != 0)
        #expect(csv.stderr.contains("error: in.csv:2: row 1: artist contains the control character U+0009 (tab); remove it\n"), "\(csv.stderr)")
        try folder.write(Fixture.archive([Fixture.album("Fine", "A"), Fixture.album("x\u{202D}y", "B")]), to: "in.json")
        let json = try await run(["import", "in.json"], folder)
        #expect(json.status != 0)
        #expect(json.stderr.contains("error: in.json:3:1: album 2: title contains U+202D LEFT-TO-RIGHT OVERRIDE, a bidirectional control"), "\(json.stderr)")
        #expect(try folder.read("site/content/albums.json") == before)

        // Right-to-left text and its marks are text.
        let hebrew = try await run(["add", "--title", "\u{5E9}\u{5DC}\u{5D5}\u{5DD}\u{200F} 2", "--artist", "\u{627}\u{644}\u{641}\u{646}\u{627}\u{646}\u{200E}"] + Array(Self.fields.dropFirst(2)), folder)
        #expect(hebrew.status == 0, "\(hebrew.stderr)")
    }

    /// An archive that already holds such characters still builds, lists on one line each,
    /// and takes edits of its other fields, each told on one line.
    /// A field typed in a terminal that is not UTF-8 (Latin-1's `é` is the byte E9) was read
    /// as U+FFFD and saved so, without a word. Refused, naming the option.
    @Test func fieldsThatAreNotUTF8AreRefused() async throws {
        let folder = try await starter()
        let before = try folder.read("site/content/albums.json")
        for (arguments, flag) in [
            (#"add --title "$(printf 'Caf\351')" --artist A --genre G --year 2000 --cover c.png"#, "--title"),
            (#"edit 1 --artist="$(printf 'Bj\366rk')""#, "--artist"),
            (#"edit 1 --param "label=$(printf 'Ed\351')""#, "--param label"),
        ] {
            let run = try await GalleryBinary.run(["-c", "exec \"$0\" \(arguments) --site site", GalleryBinary.url.path], in: folder.url, binary: URL(fileURLWithPath: "/bin/sh"))
            #expect(run.status != 0, "\(arguments)")
            #expect(run.stderr.hasPrefix("Error: \(flag) is not UTF-8 text (is the terminal set to another encoding, such as Latin-1?)"), "\(run.stderr)")
        }
        #expect(try folder.read("site/content/albums.json") == before)
        // The cover too: cover_url is text in the archive, which names no file so spelled.
        let cover = try await GalleryBinary.run(["-c", #"exec "$0" add --title T --artist A --genre G --year 2000 --cover "$(printf 'c\351.png')" --site site"#, GalleryBinary.url.path], in: folder.url, binary: URL(fileURLWithPath: "/bin/sh"))
        #expect(cover.status != 0 && cover.stderr.hasPrefix("Error: --cover is not UTF-8 text"), "\(cover.stderr)")
        // UTF-8 is taken as it is.
        let good = try await GalleryBinary.run(["-c", #"exec "$0" add --title "$(printf 'Caf\303\251')" --artist A --genre G --year 2000 --cover c.png --site site"#, GalleryBinary.url.path], in: folder.url, binary: URL(fileURLWithPath: "/bin/sh"))
        #expect(good.status == 0, "\(good.stderr)")
        #expect(try folder.read("site/content/albums.json").contains("\"title\": \"Caf\u{E9}\""))
    }

    @Test func anArchiveThatAlreadyHoldsControlsStillWorks() async throws {
        let folder = try await starter()
        try folder.write(Fixture.archive([Fixture.album("ab\u{202E}cd", "x\u{1}y"), Fixture.album("Plain", "Z")]), to: "site/content/albums.json")
        try folder.write(Fixture.cover, to: "site/content/covers/a.svg")
        let build = try await GalleryBinary.run(["build", "-q", "--site", "site"], in: folder.url)
        #expect(build.status == 0, "\(build.stderr)")
        let list = try await run(["list"], folder)
        #expect(list.stdout.split(separator: "\n").map(String.init) == [
            "#  Slug       Artist   Album         Genre  Year",
            "1  x-y-ab-cd  x\\u{1}y  ab\\u{202E}cd  Pop    2000",
            "2  z-plain    Z        Plain         Pop    2000",
        ])
        #expect(!list.stdout.unicodeScalars.contains("\u{202E}"))
        // Its confirmations too: a line break or an override in a title neither splits nor
        // reorders the line that names it.
        try folder.write(Fixture.archive([Fixture.album("ab\u{202E}cd\nef", "x\u{1}y"), Fixture.album("Plain", "Z")]), to: "site/content/albums.json")
        let edit = try await run(["edit", "1", "--year", "1999"], folder)
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(edit.stdout == "edited album 1, \"ab\\u{202E}cd ef\" by x\\u{1}y\n")
        let delete = try await run(["delete", "1"], folder)
        #expect(delete.stdout == "deleted album 1, \"ab\\u{202E}cd ef\" by x\\u{1}y\n")
        let undo = try await run(["undo"], folder)
        #expect(undo.stdout.hasPrefix("undid: deleted album 1, \"ab\\u{202E}cd ef\" by x\\u{1}y"), "\(undo.stdout)")
    }

    @Test func aPositionPastTheEndIsRefusedWithTheRange() async throws {
        let folder = try await starter()
        let past = try await run(["add", "--title", "Q", "--at", "99"] + Self.fields, folder)
        #expect(past.status != 0)
        #expect(past.stderr == "error: --at 99 is past the end: there are 5 albums, so --at takes 1 to 6 (6 adds at the end)\nerror: nothing was changed\n")
        let end = try await run(["add", "--title", "Q", "--at", "6"] + Self.fields, folder)
        #expect(end.stdout == "added \"Q\" by Q as album 6\n")
    }

    /// A warning in the archive prints as a warning, an error as an error, each label once.
    @Test func messagesCarryTheirOwnSeverityOnce() async throws {
        let folder = try await starter()
        try folder.write("""
            {"version": 1, "albums": [
            {"title": "A", "artist": "B", "genre": "Pop", "year": 2000, "cover_url": "c.png", "url": "x"},
            {"title": "C", "artist": "D", "genre": "Pop", "cover_url": "c.png"}
            ]}

            """, to: "site/content/albums.json")
        let add = try await run(["add", "--title", "Q"] + Self.fields, folder)
        #expect(add.status != 0)
        #expect(add.stderr == """
            site/content/albums.json:2:83: warning: album 1 ("A") has an unknown key "url", which is ignored; to show it on the pages, put it under "params" ("params": {"url": …}) and write {{album.params.url}} in a template
            site/content/albums.json:3:1: error: album 2 ("C") has no "year"; add "year": 1999
            error: fix the archive first; nothing was changed

            """)
        try folder.write("{\"version\": 1, \"albums\": [{\"title\": \"A\", \"artist\": \"B\", \"genre\": \"Pop\", \"year\": \"2000\", \"cover_url\": \"c.png\"}]}", to: "j.json")
        let imported = try await run(["import", "j.json"], folder)
        #expect(imported.stderr.hasPrefix("j.json:1:81: error: album 1 (\"A\"): \"year\" must be a number, not a string"), "\(imported.stderr)")
        for line in (add.stderr + imported.stderr).split(separator: "\n") {
            let labels = line.components(separatedBy: "error: ").count + line.components(separatedBy: "warning: ").count - 2
            #expect(labels == 1, "\(line)")
        }
    }
}
