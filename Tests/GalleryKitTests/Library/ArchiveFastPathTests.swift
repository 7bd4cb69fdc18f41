import Foundation
import Testing

@testable import GalleryKit

/// The archive's fast path reads the usual archive without a tree of nodes. It must give exactly
/// what the full decoder gives (the albums, and the positions messages name them by) or give
/// up, for any bytes: judged here against the full decoder itself.
@Suite struct ArchiveFastPathTests {
    /// The fast path's albums, after checking that the full decoder reads the same bytes to the
    /// same albums and positions, without a word.
    func read(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [(album: Album, position: SourcePosition)]? {
        try read(Array(text.utf8), sourceLocation: sourceLocation)
    }

    func read(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> [(album: Album, position: SourcePosition)]? {
        guard let fast = ArchiveFastPath.read(bytes) else { return nil }
        let (full, warnings) = try AlbumArchive.decodeInFull(bytes, path: "albums.json")
        #expect(warnings.isEmpty, "\(warnings)", sourceLocation: sourceLocation)
        #expect(fast.map(\.album) == full.albums, sourceLocation: sourceLocation)
        #expect(fast.map(\.position) == full.positions, sourceLocation: sourceLocation)
        #expect(full.extras.isEmpty, sourceLocation: sourceLocation)
        return fast
    }

    static let album = #"{"title": "Best of Bowie", "artist": "David Bowie", "genre": "Pop", "year": 1992, "cover_url": "covers/a.svg"}"#

    static func archive(_ albums: [String]) -> String {
        "{\"version\": 1, \"albums\": [\n  " + albums.joined(separator: ",\n  ") + "\n]}\n"
    }

    @Test func theShippedArchiveAndAGeneratedOneAreReadByTheFastPath() throws {
        let shipped = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "../../../content/albums.json").standardizedFileURL)
        #expect(try read(Array(shipped))?.count == 5)
        // As gallery writes an archive (pretty, with slugs, escapes where JSON needs them).
        var archive = AlbumArchive(albums: (1...40).map { number in
            Album(title: "Título \(number) \"quoted\" \\ / é 🎸", artist: "Ärtist \(number % 7)", genre: "Pop", year: 1950 + number, coverURL: "covers/\(number).jpg", slug: number % 3 == 0 ? "slug-\(number)" : nil)
        })
        archive.positions = []
        let read = try #require(try self.read(archive.encoded()))
        #expect(read.map(\.album) == archive.albums)
    }

    @Test(arguments: [
        // Whitespace of every kind, and none.
        archive([album, album.replacingOccurrences(of: "Bowie\"", with: "Bowie 2\"")]),
        "{\"version\":1,\"albums\":[" + album + "," + album.replacingOccurrences(of: "Pop", with: "Rock") + "]}",
        "\r\n\t{ \"version\" : 1 ,\r\n\t\"albums\" : [ \r\n" + album + " ] } \r\n",
        "\u{FEFF}" + archive([album]),
        // Keys in any order, with a slug, and escapes of every kind.
        archive([#"{"slug": "b-b", "cover_url": "c.png", "year": 2000, "genre": "Jazz", "artist": "B", "title": "T"}"#]),
        archive([#"{"title": "\u00c9t\u00e9 \ud83c\udfb8 \"q\" \\ \/ \t", "artist": "A\u0020B", "genre": "G", "year": 1999, "cover_url": "https:\/\/example.org\/a.jpg"}"#]),
        // Positions on a long line count scalars, not bytes.
        "{\"version\": 1, \"albums\": [" + Array(repeating: album.replacingOccurrences(of: "Best", with: "Bëst 🎸"), count: 3).enumerated().map { $1.replacingOccurrences(of: "Bowie\"", with: "Bowie \($0)\"") }.joined(separator: ", ") + "]}",
        // A key is its text, escapes decoded, for the full decoder as for the fast path.
        archive([album.replacingOccurrences(of: "\"title\"", with: "\"t\\u0069tle\"")]),
        "{\"version\": 1, \"albums\": []}",
        "{\"version\": 1, \"albums\": [\n]}\n",
    ])
    func theUsualShapesAreReadByTheFastPath(text: String) throws {
        #expect(try read(text) != nil)
    }

    @Test(arguments: [
        // Shapes the full decoder reads, with warnings or extras the fast path does not make.
        archive([album.replacingOccurrences(of: "}", with: #", "params": {"price": "12"}}"#)]),
        archive([album.replacingOccurrences(of: "}", with: #", "label": "Island"}"#)]),
        // A key that starts as one of the album's does is another key.
        archive([album.replacingOccurrences(of: "}", with: #", "genres": "Rock"}"#)]),
        archive([album.replacingOccurrences(of: "\"genre\"", with: "\"genr\"")]),
        "{\"albums\": [" + album + "], \"version\": 1}",
        "{\"version\": 1, \"albums\": [" + album + "], \"note\": \"x\"}",
        archive([album.replacingOccurrences(of: "}", with: #", "slug": null}"#)]),
        archive([album.replacingOccurrences(of: "}", with: #", "slug": "2"}"#)]),
        // Faults: the full decoder names them.
        archive([album.replacingOccurrences(of: "\"genre\": \"Pop\", ", with: "")]),
        archive([album.replacingOccurrences(of: "}", with: #", "title": "Again"}"#)]),
        archive([album.replacingOccurrences(of: "1992", with: "\"1992\"")]),
        archive([album.replacingOccurrences(of: "1992", with: "1992.5")]),
        archive([album.replacingOccurrences(of: "1992", with: "01992")]),
        archive([album.replacingOccurrences(of: "1992", with: "1e3")]),
        archive([album.replacingOccurrences(of: "1992", with: "12")]),
        archive([album.replacingOccurrences(of: "\"Pop\"", with: "\"  \"")]),
        archive([album.replacingOccurrences(of: "}", with: #", "slug": "Not A Slug"}"#)]),
        archive([album.replacingOccurrences(of: "}", with: #", "slug": "same"}"#), album.replacingOccurrences(of: "}", with: #", "slug": "same"}"#)]),
        archive([album.replacingOccurrences(of: "Best of Bowie", with: String(repeating: "x", count: 5000))]),
        archive([album.replacingOccurrences(of: "Pop", with: "P\u{01}p")]),
        archive([album.replacingOccurrences(of: "Pop", with: #"P\ud800p"#)]),
        archive([album.replacingOccurrences(of: "Pop", with: #"P\xp"#)]),
        archive([album, "{}"]),
        archive([album + ","]),
        "{\"version\": 2, \"albums\": [" + album + "]}",
        "{\"version\": \"1\", \"albums\": [" + album + "]}",
        "{\"version\": 1.0, \"albums\": [" + album + "]}",
        "{\"version\": 1, \"albums\": [" + album + "]} x",
        "{\"version\": 1, \"albums\": [" + album + "]",
        "[" + album + "]",
        "",
    ])
    func anythingElseIsLeftToTheFullDecoder(text: String) throws {
        #expect(ArchiveFastPath.read(Array(text.utf8)) == nil)
    }

    @Test func bytesThatAreNotUTF8AreLeftToTheFullDecoder() {
        var bytes = Array(Self.archive([Self.album]).utf8)
        let at = bytes.firstIndex(of: UInt8(ascii: "B"))!
        bytes[at] = 0xFF
        #expect(ArchiveFastPath.read(bytes) == nil)
    }

    /// Archives made at random from pieces, good and bad: whenever the fast path reads one, the
    /// full decoder reads it to the same albums and positions (checked by `read`).
    @Test func randomArchivesReadByTheFastPathAreReadAlikeInFull() throws {
        var random = SeededGenerator(seed: 20261125)
        let spaces = ["", " ", "\n", "\r\n  ", "\t"]
        let texts = ["Plain", "Ünïcode 🎸", #"esc \"q\" \\ \/"#, #"\u00e9\ud83c\udfb8"#, "", "  ", "a\tb", String(repeating: "é", count: 300), "x\u{7F}y"]
        let years = ["1999", "2024", "0", "-5", "1e3", "01", "2000.0", "\"2000\"", "null"]
        let slugs = [nil, "a-slug", "Bad Slug", "dup", "", "null"]
        var fastReads = 0
        for _ in 0..<400 {
            let count = Int.random(in: 0...4, using: &random)
            let albums = (0..<count).map { _ -> String in
                var members: [String] = []
                for key in ["title", "artist", "genre", "cover_url"] where Int.random(in: 0..<20, using: &random) > 0 {
                    members.append("\"\(key)\":\(spaces.randomElement(using: &random)!)\"\(texts.randomElement(using: &random)!)\"")
                }
                if Int.random(in: 0..<20, using: &random) > 0 { members.append("\"year\": \(years.randomElement(using: &random)!)") }
                if let slug = slugs.randomElement(using: &random)! { members.append(slug == "null" ? "\"slug\": null" : "\"slug\": \"\(slug)\"") }
                if Int.random(in: 0..<10, using: &random) == 0 { members.append("\"extra\": [1, {\"a\": true}]") }
                members.shuffle(using: &random)
                let gap = spaces.randomElement(using: &random)!
                return "{" + gap + members.joined(separator: "," + gap) + gap + "}"
            }
            let gap = spaces.randomElement(using: &random)!
            let text = "{\(gap)\"version\":\(gap)1,\(gap)\"albums\":\(gap)[\(gap)" + albums.joined(separator: ",\(gap)") + "\(gap)]\(gap)}" + gap
            if try read(text) != nil { fastReads += 1 }
        }
        // Enough of them are good to put the comparison to work.
        #expect(fastReads > 40, "\(fastReads) of 400")
    }
}
