import Dispatch
import Synchronization

/// Reads an archive in the shape nearly every archive has, straight into albums, without the
/// tree of nodes the full decoder walks: at 10k albums that tree was most of a rebuild's load.
///
/// It accepts `{"version": 1, "albums": [...]}` with those two keys in that order, each album
/// an object of `title`, `artist`, `genre`, `year`, `cover_url` and an optional `slug` (each
/// once, in any order, strings and a whole-number year), read by ``JSONParser``'s own scanning
/// (whitespace, escapes, a byte-order mark, positions). It applies the decoder's checks (blank or
/// too long texts, years, slugs, a slug used twice) and gives up at the first thing it does not
/// expect or that a check refuses: `params`, a key gallery does not use, a missing field, a
/// syntax error. The full decoder then reads the archive, and says what is wrong if anything is.
/// So what it returns is exactly what the full decoder returns for the same bytes (albums, and
/// each album's position for messages), with no diagnostics, as the full decoder has none for
/// such an archive.
enum ArchiveFastPath {
    /// The albums and their positions, or `nil` when the full decoder must read `bytes`.
    ///
    /// An archive of at least `parallelAbove` bytes is read in two halves at once, split between
    /// two albums (at 10k albums reading it was a quarter of an edit's build).
    static func read(_ bytes: [UInt8], parallelAbove threshold: Int = 512 * 1024) -> [(album: Album, position: SourcePosition)]? {
        var parser = JSONParser(bytes: bytes)
        guard parser.readHead() else { return nil }
        if bytes.count >= threshold, let second = parser.secondHalf() {
            let halves = Mutex<[Int: (albums: [(album: Album, position: SourcePosition)], slugs: Set<String>)?]>([:])
            let first = parser
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                var reader = half == 0 ? first : second.parser
                let read = half == 0 ? reader.readAlbums(until: second.start) : reader.readAlbums(until: nil, afterComma: true)
                halves.withLock { $0[half] = read }
            }
            let (one, two) = halves.withLock { ($0[0] ?? nil, $0[1] ?? nil) }
            // A slug in both halves is used twice: the full decoder says so.
            guard let one, let two, one.slugs.isDisjoint(with: two.slugs) else { return nil }
            return one.albums + two.albums
        }
        return parser.readAlbums(until: nil)?.albums
    }

    /// Where the second half of an archive read in halves starts, if it can be split (for tests).
    static func splitPoint(_ bytes: [UInt8]) -> Int? {
        var parser = JSONParser(bytes: bytes)
        guard parser.readHead() else { return nil }
        return parser.secondHalf()?.start
    }
}

extension JSONParser {
    /// `{"version": 1, "albums": [`, leaving the parser at the first album (or the `]`).
    fileprivate mutating func readHead() -> Bool {
        take("{") && key() == "version" && take(":") && number() == "1" && take(",") && key() == "albums" && take(":") && take("[")
    }

    /// A parser for the albums after the `,` that follows the album ending nearest past the
    /// middle of the file, and where it starts; `nil` when the albums end before it. Found by a
    /// scan that follows strings and nesting and counts lines as ``skipWhitespace()`` does, so
    /// the second parser's positions are the ones one parser would give.
    fileprivate func secondHalf() -> (parser: JSONParser, start: Int)? {
        let middle = index + (bytes.count - index) / 2
        var (line, lineStart) = (self.line, self.lineStart)
        var depth = 0
        var inString = false
        var escaped = false
        return bytes.withUnsafeBufferPointer { bytes -> (parser: JSONParser, start: Int)? in
            var at = index
            while at < bytes.count {
                let byte = bytes[at]
                if byte == 0x0A {
                    line += 1
                    lineStart = at + 1
                }
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth < 0 { return nil }
                    case UInt8(ascii: ",") where depth == 0 && at >= middle:
                        var parser = JSONParser(bytes: self.bytes)
                        parser.index = at + 1
                        parser.line = line
                        parser.lineStart = lineStart
                        return (parser, at + 1)
                    default: break
                    }
                }
                at += 1
            }
            return nil
        }
    }

    /// The albums from here to the end of the archive, or, with `end`, to the `,` just before
    /// `end`; with the slugs they use. `nil` for anything the fast path does not take. Just
    /// after a `,` (`afterComma`), an album must follow: `[{...},]` is not JSON.
    fileprivate mutating func readAlbums(until end: Int?, afterComma: Bool = false) -> (albums: [(album: Album, position: SourcePosition)], slugs: Set<String>)? {
        var albums: [(album: Album, position: SourcePosition)] = []
        albums.reserveCapacity(((end ?? bytes.count) - index) / 160)
        var slugs: Set<String> = []
        if end != nil || afterComma || !take("]") {
            while true {
                skipWhitespace()
                guard let album = readAlbum() else { return nil }
                if let slug = album.album.slug, !slugs.insert(slug).inserted { return nil }
                albums.append(album)
                if take(",") {
                    if let end, index >= end { return index == end ? (albums, slugs) : nil }
                    continue
                }
                guard end == nil, take("]") else { return nil }
                break
            }
        }
        guard take("}") else { return nil }
        skipWhitespace()
        return index == bytes.count ? (albums, slugs) : nil
    }

    /// One album object, checked as the decoder checks it; `nil` for anything else.
    private mutating func readAlbum() -> (album: Album, position: SourcePosition)? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        let position = self.position
        index += 1
        var title: String?, artist: String?, genre: String?, cover: String?, slug: String?, year: Int?
        repeat {
            guard let key = key(), take(":") else { return nil }
            skipWhitespace()
            if key == "year" {
                guard year == nil, let text = number(), let value = Int(text) else { return nil }
                year = value
                continue
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let value = try? parseString() else { return nil }
            switch key {
            case "title" where title == nil: title = value
            case "artist" where artist == nil: artist = value
            case "genre" where genre == nil: genre = value
            case "cover_url" where cover == nil: cover = value
            case "slug" where slug == nil: slug = value
            default: return nil
            }
        } while take(",")
        guard take("}"), let title, let artist, let genre, let cover, let year, AlbumRules.yearProblem(year) == nil else { return nil }
        for (value, field) in [(title, "title"), (artist, "artist"), (genre, "genre"), (cover, "cover_url")] {
            guard !AlbumRules.isBlank(value), AlbumRules.lengthProblem(value, field: field) == nil else { return nil }
        }
        if let slug, AlbumRules.slugProblem(slug) != nil { return nil }
        return (Album(title: title, artist: artist, genre: genre, year: year, coverURL: cover, slug: slug), position)
    }

    /// After whitespace, an object key (a string), or `nil`.
    private mutating func key() -> String? {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        return try? parseString()
    }

    /// After whitespace, a number's text, or `nil`.
    private mutating func number() -> String? {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "-") || (bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")) else { return nil }
        return try? parseNumber()
    }

    /// Skips whitespace, then takes `byte` if it is next.
    private mutating func take(_ byte: Unicode.Scalar) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(byte.value) else { return false }
        index += 1
        return true
    }
}
