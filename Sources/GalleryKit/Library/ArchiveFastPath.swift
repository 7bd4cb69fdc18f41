/// Reads an archive in the shape nearly every archive has, straight into albums, without the
/// tree of nodes the full decoder walks: at 10k albums that tree was most of a rebuild's load.
///
/// It accepts `{"version": 1, "albums": [...]}` with those two keys in that order, each album
/// an object of `title`, `artist`, `genre`, `year`, `cover_url` and an optional `slug` (each
/// once, in any order, strings and a whole-number year), any JSON whitespace, escapes and a
/// byte-order mark. It applies the decoder's checks (blank or too long texts, years, slugs, a
/// slug used twice) and gives up at the first thing it does not expect or that a check refuses:
/// `params`, a key gallery does not use, a missing field, a syntax error. The full decoder then
/// reads the archive, and says what is wrong if anything is. So what it returns is exactly what
/// the full decoder returns for the same bytes (albums, and each album's position for messages),
/// with no diagnostics, as the full decoder has none for such an archive.
struct ArchiveFastPath {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var line = 1
    private var lineStart = 0
    /// As in ``JSONParser``: the last column worked out on the current line.
    private var columnMark = (index: 0, column: 1)

    /// The albums and their positions, or `nil` when the full decoder must read `bytes`.
    static func read(_ bytes: [UInt8]) -> [(album: Album, position: SourcePosition)]? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = ArchiveFastPath(bytes: buffer)
            return reader.readRoot()
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func readRoot() -> [(album: Album, position: SourcePosition)]? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { (index, lineStart) = (3, 3) }
        guard take("{"), takeKey("version"), take(":"), takeWhitespace(), bytes.count > index, bytes[index] == UInt8(ascii: "1") else { return nil }
        index += 1
        guard !isNumberByte(at: index), take(","), takeKey("albums"), take(":"), take("[") else { return nil }
        var albums: [(album: Album, position: SourcePosition)] = []
        albums.reserveCapacity(bytes.count / 160)
        var slugs: Set<String> = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
        } else {
            while true {
                skipWhitespace()
                guard let album = readAlbum() else { return nil }
                if let slug = album.album.slug, !slugs.insert(slug).inserted { return nil }
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
        while true {
            skipWhitespace()
            guard let key = readKey(), take(":") else { return nil }
            skipWhitespace()
            switch key {
            case .year:
                guard year == nil, let value = readYear() else { return nil }
                year = value
            case .title, .artist, .genre, .cover, .slug:
                guard let value = readString() else { return nil }
                switch key {
                case .title where title == nil: title = value
                case .artist where artist == nil: artist = value
                case .genre where genre == nil: genre = value
                case .cover where cover == nil: cover = value
                case .slug where slug == nil: slug = value
                default: return nil
                }
            }
            if take(",") { continue }
            guard take("}") else { return nil }
            break
        }
        guard let title, let artist, let genre, let cover, let year, AlbumRules.yearProblem(year) == nil else { return nil }
        for (value, field) in [(title, "title"), (artist, "artist"), (genre, "genre"), (cover, "cover_url")] {
            guard !AlbumRules.isBlank(value), AlbumRules.lengthProblem(value, field: field) == nil else { return nil }
        }
        if let slug, AlbumRules.slugProblem(slug) != nil { return nil }
        return (Album(title: title, artist: artist, genre: genre, year: year, coverURL: cover, slug: slug), position)
    }

    private enum Key {
        case title, artist, genre, year, cover, slug
    }

    /// A key an album may have, written without escapes; `nil` for any other.
    private mutating func readKey() -> Key? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            if bytes[end] == UInt8(ascii: "\\") || end - start > 9 { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        index = end + 1
        let key = UnsafeBufferPointer(rebasing: bytes[start..<end])
        for (name, field) in Self.keys where key.elementsEqual(name) { return field }
        return nil
    }

    private static let keys: [([UInt8], Key)] = [
        (Array("title".utf8), .title), (Array("artist".utf8), .artist), (Array("genre".utf8), .genre),
        (Array("year".utf8), .year), (Array("cover_url".utf8), .cover), (Array("slug".utf8), .slug),
    ]

    /// A string value, escapes decoded, as ``JSONParser`` reads one; `nil` for a string it refuses.
    private mutating func readString() -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        guard end < bytes.count else { return nil }
        if bytes[end] == UInt8(ascii: "\"") {
            defer { index = end + 1 }
            return JSONParser.string(validating: UnsafeBufferPointer(rebasing: bytes[index..<end]))
        }
        var decoded = Array(bytes[index..<end])
        index = end
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return decoded.withUnsafeBufferPointer(JSONParser.string(validating:))
            case ..<0x20:
                return nil
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    guard var value = readHex4() else { return nil }
                    if (0xD800...0xDBFF).contains(value) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                        index += 2
                        guard let low = readHex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(value) {
                        return nil
                    }
                    guard let scalar = Unicode.Scalar(value) else { return nil }
                    decoded.append(contentsOf: String(scalar).utf8)
                default:
                    return nil
                }
            default:
                decoded.append(byte)
            }
        }
        return nil
    }

    private mutating func readHex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// A whole number written as JSON writes one (no leading zero, fraction or exponent).
    private mutating func readYear() -> Int? {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digits = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        let count = index - digits
        guard count > 0, count <= 9, !(count > 1 && bytes[digits] == UInt8(ascii: "0")), !isNumberByte(at: index) else { return nil }
        return Int(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    /// Whether the byte at `offset` would continue a number (so the number is not a plain one).
    private func isNumberByte(at offset: Int) -> Bool {
        guard offset < bytes.count else { return false }
        switch bytes[offset] {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "-"), UInt8(ascii: "+"): return true
        default: return false
        }
    }

    /// Skips whitespace, then takes `byte` if it is next.
    private mutating func take(_ byte: Unicode.Scalar) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(byte.value) else { return false }
        index += 1
        return true
    }

    /// Skips whitespace, then takes `"name"` if it is next.
    private mutating func takeKey(_ name: StaticString) -> Bool {
        skipWhitespace()
        let count = name.utf8CodeUnitCount
        guard index + count + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\""), bytes[index + count + 1] == UInt8(ascii: "\"") else { return false }
        let matches = name.withUTF8Buffer { UnsafeBufferPointer(rebasing: bytes[(index + 1)..<(index + 1 + count)]).elementsEqual($0) }
        if matches { index += count + 2 }
        return matches
    }

    private mutating func takeWhitespace() -> Bool {
        skipWhitespace()
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    /// The line and column (in scalars) of `index`, as ``JSONParser`` gives them.
    private var position: SourcePosition {
        mutating get {
            if columnMark.index < lineStart || columnMark.index > index { columnMark = (lineStart, 1) }
            var column = columnMark.column
            var i = columnMark.index
            while i < index {
                if bytes[i] & 0xC0 != 0x80 { column += 1 }
                i += 1
            }
            columnMark = (index, column)
            return SourcePosition(line: line, column: column)
        }
    }
}
