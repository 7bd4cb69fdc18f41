import Testing

@testable import GalleryKit

@Suite struct AlbumRulesTests {
    /// A param's name is one a template can write, to its last character: a regular
    /// expression's `$` let "price\n" through, and {{album.params.price}} showed nothing.
    @Test func aParamNameIsOneATemplateCanWrite() {
        for name in ["price", "_x", "a-1", "Z9_"] { #expect(Album.paramNameProblem(name) == nil, "\(name)") }
        for name in ["price\n", "price\r\n", "1a", "-a", "", "a b", "prix€", "a.b"] { #expect(Album.paramNameProblem(name) != nil, "\(name)") }
    }

    /// A value of 50 MB is named by its first 60 characters: its message was a line of 50 MB,
    /// and a slug that long took 13 s to be suggested another.
    @Test func messagesCutWhatTheyQuote() throws {
        let long = String(repeating: "Ab", count: 5_000_000)
        let problem = try #require(AlbumRules.slugProblem(long))
        #expect(problem.hasPrefix("\"" + String(long.prefix(60)) + "…\" is not lowercase ASCII letters"), "\(problem.prefix(100))")
        #expect(problem.count < 300)
        let paramProblem = Album.paramNameProblem("1" + long)?.count ?? 0
        #expect(paramProblem > 0 && paramProblem < 300)
        #expect("é".clippedForMessage == "é" && String(repeating: "é", count: 80).clippedForMessage.count == 80)
        #expect(String(repeating: "é", count: 81).clippedForMessage == String(repeating: "é", count: 60) + "…")
        // One character of two million combining accents was quoted whole: a message of 4 MB.
        let accents = "e" + String(repeating: "\u{0301}", count: 2_000_000)
        #expect(accents.count == 1)
        #expect(accents.clippedForMessage.unicodeScalars.count == 241)
        #expect(accents.clippedForMessage.hasSuffix("…"))
        // Text of a few marks to a letter stays whole.
        let decomposed = String(repeating: "e\u{0301}", count: 80)
        #expect(decomposed.clippedForMessage == decomposed)
        let json = #"{"version": 1, "albums": [{"title": "\#(accents)", "artist": "A", "genre": "G", "year": 2000, "cover_url": "c.svg"}]}"#
        do {
            _ = try AlbumArchive.decode(Array(json.utf8), path: "albums.json")
            Issue.record("a title of two million characters was accepted")
        } catch {
            #expect(error.diagnostics.allSatisfy { $0.description.utf8.count < 2_000 }, "\(error.diagnostics.map(\.description.utf8.count)) bytes")
        }
    }

    /// A param's text is at most 20,000 characters, in an archive, an import or an edit: a 50 MB
    /// value was published into its page and the data files.
    @Test func aParamValueHasALimitToo() throws {
        var album = Album(title: "T", artist: "A", genre: "G", year: 2000, coverURL: "c.svg")
        album.setParams([("notes", .text(String(repeating: "n", count: AlbumRules.maxParamLength)))])
        #expect(AlbumRules.problems(in: album).isEmpty)
        album.setParams([("notes", .text(String(repeating: "n", count: AlbumRules.maxParamLength + 1)))])
        #expect(AlbumRules.problems(in: album).map(\.description) == ["params.notes is 20001 characters long; at most 20000 (was a whole text pasted into it?)"])
        let text = "{\"version\": 1, \"albums\": [{\"title\": \"T\", \"artist\": \"A\", \"genre\": \"G\", \"year\": 2000, \"cover_url\": \"c.svg\", \"params\": {\"notes\": \"\(String(repeating: "n", count: 20_001))\"}}]}"
        #expect {
            try AlbumArchive.decode(Array(text.utf8), path: "content/albums.json")
        } throws: { error in
            (error as? ArchiveError)?.diagnostics.map(\.message) == ["album 1 (\"T\"): params \"notes\" is 20001 characters long; at most 20000 (was a whole text pasted into it?)"]
        }
    }

    @Test func refusesEveryControlCharacterAndBidirectionalOverride() {
        let refused: [UInt32] = Array(0x00...0x1F) + Array(0x7F...0x9F) + Array(0x202A...0x202E) + Array(0x2066...0x2069) + [0x2028, 0x2029]
        for value in refused {
            let scalar = Unicode.Scalar(value)!
            let problem = AlbumRules.characterProblem("a" + String(Character(scalar)) + "b")
            #expect(problem?.contains(AlbumRules.code(scalar)) == true, "\(AlbumRules.code(scalar)) was accepted")
        }
        #expect(AlbumRules.characterProblem("a\tb") == "contains the control character U+0009 (tab); remove it")
        #expect(AlbumRules.characterProblem("a\u{2028}b") == "contains the control character U+2028 (line separator); remove it")
        #expect(AlbumListing.table(Catalogue(albums: [Album(title: "a\u{2029}b", artist: "A", genre: "G", year: 2000, coverURL: "c")])).contains("a\\u{2029}b"))
        #expect(AlbumRules.characterProblem("x\u{202E}y") == "contains U+202E RIGHT-TO-LEFT OVERRIDE, a bidirectional control that reorders the text around it; remove it (right-to-left text needs none)")
    }

    /// `gallery list` aligns its columns as a terminal shows them: wide characters take two
    /// columns, a combining mark none.
    /// A field longer than any real one is refused, by the loader and the library commands
    /// alike, naming the album by the start of its title.
    @Test func refusesFieldsLongerThanAnyRealOne() throws {
        let longest = String(repeating: "é", count: AlbumRules.maxTextLength)
        var album = Album(title: longest, artist: "A", genre: "G", year: 2000, coverURL: "https://example.com/" + String(repeating: "a", count: AlbumRules.maxCoverURLLength - 20))
        #expect(AlbumRules.problems(in: album).isEmpty, "at the limits")
        album.title += "x"
        album.coverURL += "a"
        #expect(AlbumRules.problems(in: album).map(\.description) == [
            "title is 2001 characters long; at most 2000 (was a whole text pasted into it?)",
            "cover_url is 8193 characters long; at most 8192 (was a whole text pasted into it?)",
        ])
        let archive = "{\"version\": 1, \"albums\": [{\"title\": \"\(String(repeating: "x", count: 5000))\", \"artist\": \"A\", \"genre\": \"G\", \"year\": 2000, \"cover_url\": \"c.png\"}]}"
        #expect {
            try AlbumArchive.decode(Array(archive.utf8), path: "content/albums.json")
        } throws: { error in
            (error as? ArchiveError)?.diagnostics.map(\.description) == ["content/albums.json:1:37: error: album 1 (\"\(String(repeating: "x", count: 60))…\"): \"title\" is 5000 characters long; at most 2000 (was a whole text pasted into it?)"]
        }
    }

    @Test func theListAlignsWideTextAsATerminalShowsIt() {
        #expect("東京事変".terminalWidth == 8)
        #expect("카라".terminalWidth == 4)
        #expect("ＡＢ".terminalWidth == 4)
        #expect("👩‍🎤 x".terminalWidth == 4)
        #expect("Sigur Ro\u{301}s".terminalWidth == 9)
        #expect("שלום".terminalWidth == 4)
        #expect("Björk".terminalWidth == 5)
        #expect("ﾊﾟﾚｯﾄ".terminalWidth == 5)
        #expect("Zero\u{200B}Width".terminalWidth == 9)
        let table = AlbumListing.table(Catalogue(albums: [
            Album(title: "教育", artist: "東京事変", genre: "ロック", year: 2004, coverURL: "c", slug: "kyoiku"),
            Album(title: "Vespertine", artist: "Björk", genre: "Pop", year: 2001, coverURL: "c", slug: "vespertine"),
        ]))
        let lines = table.split(separator: "\n").map(String.init)
        // The year, last, ends every line in the same terminal column.
        #expect(lines.count == 3)
        #expect(lines[1].hasSuffix("2004") && lines[2].hasSuffix("2001"))
        #expect(lines[1].terminalWidth == lines[2].terminalWidth, "\(table)")
        #expect(lines[0].terminalWidth == lines[1].terminalWidth, "\(table)")
        #expect(lines[1].hasPrefix("1  kyoiku      東京事変  教育        ロック  2004"), "\(table)")
    }

    /// One long title once padded every row of `gallery list` past two thousand columns: long
    /// cells are cut, as a terminal counts columns, and the slug (what `edit` takes) never is.
    @Test func longCellsAreCutButNotSlugs() {
        let long = String(repeating: "L", count: 2000)
        let table = AlbumListing.table(Catalogue(albums: [
            Album(title: long, artist: String(repeating: "東", count: 40), genre: "Pop", year: 2004, coverURL: "c", slug: "a-" + String(repeating: "s", count: 60)),
            Album(title: "Short", artist: "Björk", genre: String(repeating: "g", count: 21), year: 2001, coverURL: "c", slug: "short"),
        ]))
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[1].contains("a-" + String(repeating: "s", count: 60) + "  "), "\(table)")
        #expect(lines[1].contains(String(repeating: "東", count: 15) + "…  " + String(repeating: "L", count: 47) + "…  Pop"), "\(table)")
        #expect(lines[2].contains(String(repeating: "g", count: 19) + "…  2001"), "\(table)")
        #expect(lines.allSatisfy { $0.terminalWidth == lines[0].terminalWidth }, "\(table)")
        #expect(lines[0].terminalWidth < 200)
        #expect("Björk".cut(toWidth: 5) == "Björk")
        #expect("Björk".cut(toWidth: 4) == "Bjö…")
    }

    /// `gallery list WORD...`: every word in some field, whatever its case, accents or width.
    @Test func aSearchFindsAlbumsWhateverTheCaseAccentsOrWidth() {
        let catalogue = Catalogue(albums: [
            Album(title: "Lemonade", artist: "Beyoncé", genre: "R&B", year: 2016, coverURL: "c"),
            Album(title: "Μέτοικος", artist: "Ζορμπάς", genre: "Ｐｏｐ", year: 1970, coverURL: "c"),
            Album(title: "Ágætis byrjun", artist: "Sigur Rós", genre: "Post-rock", year: 1999, coverURL: "c"),
        ])
        func numbers(_ words: [String]) -> [Int] {
            catalogue.entries.filter(AlbumListing.Search(words).matches).map { $0.index + 1 }
        }
        #expect(numbers([]) == [1, 2, 3])
        #expect(numbers(["BEYONCE"]) == [1])
        #expect(numbers(["beyoncé", "2016"]) == [1])
        #expect(numbers(["beyonce", "1999"]) == [], "every word must be found")
        #expect(numbers(["ΜΕΤΟΙΚΟΣ"]) == [2], "a capital sigma finds a final one")
        #expect(numbers(["pop"]) == [2], "full-width letters are found by narrow ones")
        #expect(numbers(["agætis"]) == [3])
        #expect(numbers(["agaetis"]) == [3], "found in the slug, where æ is written ae")
        #expect(numbers(["sigur-ros"]) == [3], "the slug is searched too")
        #expect(numbers(["  "]) == [1, 2, 3], "blank words are no words")
        #expect(AlbumListing.table(catalogue, search: AlbumListing.Search(["rós"])).split(separator: "\n").last?.hasPrefix("3  ") == true)
    }

    /// A label looks a release up by its catalogue number, a param; and Turkish's dotless ı at a
    /// word's start finds the I of Istanbul, as it did in the middle of one.
    @Test func aSearchFindsParamsAndTurkishDotlessI() {
        let catalogue = Catalogue(albums: [
            Album(title: "Istanbul", artist: "Işın Karaca", genre: "Pop", year: 2001, coverURL: "c", extras: [Album.Extra(key: "params", json: #"{"catno":"LBL-0200","sealed":true,"copies":12}"#)]),
            Album(title: "Other", artist: "B", genre: "Pop", year: 2002, coverURL: "c"),
        ])
        func numbers(_ words: [String]) -> [Int] {
            catalogue.entries.filter(AlbumListing.Search(words).matches).map { $0.index + 1 }
        }
        #expect(numbers(["LBL-0200"]) == [1])
        #expect(numbers(["lbl", "0200"]) == [1])
        #expect(numbers(["ıstanbul"]) == [1])
        #expect(numbers(["işın"]) == [1])
        #expect(numbers(["true"]) == [], "a flag is no text to find")
    }

    @Test func acceptsRightToLeftTextItsMarksAndOtherScripts() {
        for text in ["Björk", "שלום\u{200F} 2", "\u{627}\u{644}\u{641}\u{646}\u{200E} (live)", "東京事変", "👩‍🎤", "AC/DC & Friends", "Sigur Rós"] {
            #expect(AlbumRules.characterProblem(text) == nil, "\(text)")
        }
    }

    /// An edit is only checked in the fields it changes: an album that already holds a control
    /// character (from an older archive) can still get a new year.
    @Test func anEditIsCheckedOnlyInTheFieldsItChanges() {
        let old = Album(title: "a\u{202E}b", artist: "x\u{1}y", genre: "Pop", year: 2000, coverURL: "c.png")
        var new = old
        new.year = 1999
        #expect(AlbumRules.problems(in: new, changedFrom: old).isEmpty)
        #expect(AlbumRules.problems(in: new).map(\.field) == ["title", "artist"])
        new.genre = "Rock\nPop"
        #expect(AlbumRules.problems(in: new, changedFrom: old).map(\.description) == ["genre contains the control character U+000A (line feed); remove it"])
    }
}
