import Foundation
import Testing

@testable import GalleryKit

@Suite struct CSVTableTests {
    /// An import reads at most a limit (1 GB for the command), then refuses the rest: a pipe
    /// from /dev/zero was read until memory ran out.
    @Test func anImportReadsUpToItsLimit() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "import-limit-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(repeating: 0x41, count: 3 << 20).write(to: file)
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        #expect {
            try AlbumImporter.readToEnd(handle, display: "big.csv", limit: 2 << 20)
        } throws: { error in
            (error as? LibraryError)?.reasons == ["big.csv: more than 2 MB and not at its end; no album file is so large, so check that it is the file you meant"]
        }
        let again = try FileHandle(forReadingFrom: file)
        defer { try? again.close() }
        #expect(try AlbumImporter.readToEnd(again, display: "big.csv", limit: 3 << 20).count == 3 << 20)
    }

    @Test func readsQuotesLineBreaksAndCRLF() throws {
        let table = try CSVTable(parsing: "\u{FEFF}Title,Artist\r\n\"Multi\nLine\",\"A \"\"quoted\"\" name\"\r\nPlain,\"\"\r\n\r\nLast,X")
        #expect(table.header == ["Title", "Artist"])
        #expect(table.rows.map(\.fields) == [["Multi\nLine", "A \"quoted\" name"], ["Plain", ""], ["Last", "X"]])
        #expect(table.rows.map(\.line) == [2, 4, 6])
    }

    @Test(arguments: [
        ("Title;Artist;Year\n\"Hits; vol. 1\";Simon, Paul;1,5\n", ";" as Unicode.Scalar),
        ("Title\tArtist\tYear\nHits; vol. 1\tSimon, Paul\t1999\n", "\t"),
        ("\"Title, main\";Artist;Year\nHits;Simon, Paul;1999\n", ";"),
        ("Title,Artist;Name,Year\nHits,Simon; Paul,1999\n", ","),
        // European Excel quotes no comma in a semicolon file.
        ("Artist;Title;Price (EUR, incl. VAT)\nSimon, Paul;Hits;12,50\n", ";"),
        // A spreadsheet's trailing empty cells separate no columns.
        ("Title,Artist,Year\t\t\t\nHits,\"Simon, Paul\",1999\n", ","),
    ])
    func takesTheSeparatorFromTheHeaderRow(text: String, separator: Unicode.Scalar) throws {
        let table = try CSVTable(parsing: text)
        #expect(table.separator == separator)
        #expect(table.header.count == 3)
        #expect(table.rows.map(\.fields.count) == [3])
        #expect(table.rows[0].fields.contains("Simon, Paul") || table.rows[0].fields.contains("Simon; Paul"))
    }

    /// Excel's `sep=;` first line names the separator and is no record: the header follows it,
    /// and lines keep their numbers.
    @Test func readsExcelsSeparatorLine() throws {
        let table = try CSVTable(parsing: "\u{FEFF}sep=;\r\nTitle;Artist,Name\r\nHits, vol. 1;Simon\r\n")
        #expect(table.separator == ";")
        #expect(table.header == ["Title", "Artist,Name"])
        #expect(table.rows.map(\.fields) == [["Hits, vol. 1", "Simon"]])
        #expect(table.rows.map(\.line) == [3])
        #expect(try CSVTable(parsing: "SEP=\t\nA\tB\n1\t2").header == ["A", "B"])
        // A header that only begins like one is a header.
        #expect(try CSVTable(parsing: "sep=x,Title\n1,2\n").header == ["sep=x", "Title"])
        #expect(throws: CSVTable.SyntaxError(line: 1, message: "the file is empty; a CSV import needs a header row and at least one album")) { try CSVTable(parsing: "sep=;\n") }
    }

    @Test func namesTheSeparatorAQuotedFieldMustEndAt() {
        #expect(throws: CSVTable.SyntaxError(line: 2, message: "text after a closing quote; a quoted field must end at a semicolon or the end of the line")) {
            try CSVTable(parsing: "A;B\n\"x\",y;z\n")
        }
    }

    /// A row with too few or too many fields is the importer's to report, beside the others.
    @Test func keepsRowsWhoseFieldCountDiffersFromTheHeader() throws {
        let table = try CSVTable(parsing: "A,B\n1,2\n3\n4,5,6\n")
        #expect(table.rows.map(\.fields) == [["1", "2"], ["3"], ["4", "5", "6"]])
        #expect(table.rows.map(\.line) == [2, 3, 4])
    }

    @Test(arguments: [
        ("A,B\n\"x,y\n", 2, "a quoted field that starts here is never closed"),
        ("A,B\nx\"y,z\n", 2, "a double quote inside an unquoted field; put the field in quotes and double the quote (\"\")"),
        ("A,B\n\"x\"y,z\n", 2, "text after a closing quote; a quoted field must end at a comma or the end of the line"),
        ("", 1, "the file is empty; a CSV import needs a header row and at least one album"),
    ])
    func reportsMalformedInputWithItsLine(text: String, line: Int, message: String) {
        #expect(throws: CSVTable.SyntaxError(line: line, message: message)) { try CSVTable(parsing: text) }
    }

    @Test(arguments: [
        ("1992", 1992 as Int?), ("1992-03", 1992), ("1992-03-01", 1992), ("2000-02-29", 2000), ("1996-02-29", 1996),
        ("1992-12-31", 1992), ("9999", 9999), ("1000-01-01", 1000), ("1999.0", 1999), ("1999,00", 1999),
        ("1980-13-45", nil), ("May 1980", nil), ("1982abc", nil), ("01/03/1992", nil), ("March 1992", nil),
        ("1999-02-29", nil), ("1900-02-29", nil), ("1992-04-31", nil), ("1992-00", nil), ("1992-03-00", nil),
        ("1992-3-1", nil), ("1992-03-01T10:00", nil), ("1992-", nil), ("1999.5", nil), ("1999.", nil),
        ("\u{FF11}\u{FF19}\u{FF19}\u{FF19}", nil), ("+1999", nil), ("19992", nil),
        ("92", nil), ("soon", nil), ("1992-1993", nil), ("", nil), ("0999", nil),
    ])
    func takesTheYearFromAYearOrAnISODate(text: String, year: Int?) {
        #expect(AlbumImporter.year(from: text) == year)
    }

    @Test func undoRestoresDeletedAlbumsAtTheirClampedIndex() throws {
        let albums = (0..<3).map { Album(title: "T\($0)", artist: "A", genre: "G", year: 2000, coverURL: "c") }
        let archive = AlbumArchive(albums: albums)
        let (shorter, change) = archive.deleting(at: 2)
        #expect(try shorter.undoing(change).albums == albums)
        let cut = AlbumArchive(albums: [albums[0]])
        #expect(try cut.undoing(change).albums == [albums[0], albums[2]])
        let (added, addition) = archive.adding(albums[0], at: 99)
        #expect(try added.undoing(addition).albums == albums)
        #expect(throws: LibraryError.self) { try archive.deleting(at: 0).0.undoing(.added(index: 0, album: albums[0])) }
    }
}
