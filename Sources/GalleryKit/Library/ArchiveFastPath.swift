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
    static func read(_ bytes: [UInt8]) -> [(album: Album, position: SourcePosition)]? {
        var parser = JSONParser(bytes: bytes)
        return parser.readArchive()
    }
}

extension JSONParser {
    fileprivate mutating func readArchive() -> [(album: Album, position: SourcePosition)]? {
        guard take("{"), key() == "version", take(":"), number() == "1", take(","), key() == "albums", take(":"), take("[") else { return nil }
        var albums: [(album: Album, position: SourcePosition)] = []
        albums.reserveCapacity(bytes.count / 160)
        var slugs: Set<String> = []
        if !take("]") {
            while true {
                skipWhitespace()
                guard let album = readAlbum() else { return nil }
                if let slug = album.album.slug {
                    // Room for every album's slug at the first: grown by inserts, the set was resized
                    // 11 times on the way to 10k, rehashing all it held each time, a seventh of
                    // decoding 10k albums (perf).
                    if slugs.isEmpty { slugs.reserveCapacity(albums.capacity) }
                    guard slugs.insert(slug).inserted else { return nil }
                }
                albums.append(album)
                if take(",") { continue }
                guard take("]") else { return nil }
                break
            }
        }
        guard take("}") else { return nil }
        skipWhitespace()
        return index == bytes.count ? albums : nil
    }

    /// One album object, checked as the decoder checks it; `nil` for anything else.
    private mutating func readAlbum() -> (album: Album, position: SourcePosition)? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        let position = self.position
        index += 1
        var title: String?, artist: String?, genre: String?, cover: String?, slug: String?, year: Int?
        repeat {
            guard let key = albumKey(), take(":") else { return nil }
            skipWhitespace()
            if key == .year {
                guard year == nil, let text = number(), let value = Int(text) else { return nil }
                year = value
                continue
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let value = try? parseString() else { return nil }
            switch key {
            case .title where title == nil: title = value
            case .artist where artist == nil: artist = value
            case .genre where genre == nil: genre = value
            case .coverURL where cover == nil: cover = value
            case .slug where slug == nil: slug = value
            default: return nil
            }
        } while take(",")
        guard take("}"), let title, let artist, let genre, let cover, let year, AlbumRules.yearProblem(year) == nil else { return nil }
        // Field by field: a list of the four made an array an album.
        func fits(_ value: String, _ field: String) -> Bool {
            !AlbumRules.isBlank(value) && AlbumRules.lengthProblem(value, field: field) == nil
        }
        guard fits(title, "title"), fits(artist, "artist"), fits(genre, "genre"), fits(cover, "cover_url") else { return nil }
        // A slug of digits only is taken with a warning, which the full decoder gives.
        if let slug, AlbumRules.slugProblem(slug) != nil || AlbumRules.isNumberLike(slug) { return nil }
        return (Album(title: title, artist: artist, genre: genre, year: year, coverURL: cover, slug: slug), position)
    }

    /// The keys of an album object.
    private enum AlbumKey: Int {
        case title, artist, genre, year, coverURL, slug

        /// Each key as the archive names it, in the cases' order.
        static let names = ["title", "artist", "genre", "year", "cover_url", "slug"]
        /// Each name's bytes and its closing quote.
        static let quoted = names.map { Array(($0 + "\"").utf8) }

        /// The key the archive names `name`, if it is one.
        init?(name: String) {
            guard let index = Self.names.firstIndex(of: name) else { return nil }
            self.init(rawValue: index)
        }
    }

    /// After whitespace, an album's key, told by its bytes rather than made into a string (six
    /// keys an album, most of the strings in an archive); one written with escapes is read as a
    /// string. `nil` for any other key.
    private mutating func albumKey() -> AlbumKey? {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        let found = bytes.withUnsafeBufferPointer { buffer -> AlbumKey? in
            guard start < buffer.count else { return nil }
            // The first letter tells which key it can be.
            let key: AlbumKey
            switch buffer[start] {
            case UInt8(ascii: "t"): key = .title
            case UInt8(ascii: "a"): key = .artist
            case UInt8(ascii: "g"): key = .genre
            case UInt8(ascii: "y"): key = .year
            case UInt8(ascii: "c"): key = .coverURL
            case UInt8(ascii: "s"): key = .slug
            default: return nil
            }
            let quoted = AlbumKey.quoted[key.rawValue]
            guard start + quoted.count <= buffer.count else { return nil }
            return UnsafeBufferPointer(rebasing: buffer[start..<(start + quoted.count)]).elementsEqual(quoted) ? key : nil
        }
        if let found {
            index = start + AlbumKey.quoted[found.rawValue].count
            return found
        }
        return key().flatMap(AlbumKey.init(name:))
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
