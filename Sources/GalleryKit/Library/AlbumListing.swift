import Foundation

/// How `gallery list` shows the albums: a table for people, JSON for scripts. The numbers are
/// the ones `edit`, `delete` and `add --at` take.
public enum AlbumListing {
    /// An aligned table with a header row, one album per line: every album, or those `search`
    /// finds (with their numbers in the whole archive).
    public static func table(_ catalogue: Catalogue, search: Search = Search()) -> String {
        let header = ["#", "Slug", "Artist", "Album", "Genre", "Year"]
        // One long title would pad every row past the screen's edge: artist, album and genre are
        // cut, with an ellipsis, at these widths (`--json` gives them whole). The slug is not: it
        // is what `edit` and `delete` take.
        let limits = [Int.max, Int.max, 32, 48, 20, Int.max]
        let rows = catalogue.entries.filter(search.matches).map { entry in
            zip(["\(entry.index + 1)", entry.slug, entry.album.artist, entry.album.title, entry.album.genre, "\(entry.album.year)"], limits)
                .map { $0.tableCell().cut(toWidth: $1) }
        }
        // Columns as a terminal shows them: `ジャズ` takes six columns, not three.
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].terminalWidth }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == 0 ? String(repeating: " ", count: widths[0] - cell.terminalWidth) + cell
                    : column == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.terminalWidth)
            }.joined(separator: "  ") + "\n"
        }
        return ([header] + rows).map(line).joined()
    }

    /// A JSON array, one album per line, with the number and slug of each: every album, or
    /// those `search` finds.
    public static func json(_ catalogue: Catalogue, search: Search = Search()) -> String {
        let lines = catalogue.entries.filter(search.matches).map { entry in
            let album = entry.album
            return "{\"number\":\(entry.index + 1),\"slug\":\(Escape.jsonString(entry.slug)),\"artist\":\(Escape.jsonString(album.artist)),"
                + "\"title\":\(Escape.jsonString(album.title)),\"genre\":\(Escape.jsonString(album.genre)),\"year\":\(album.year),"
                + "\"cover_url\":\(Escape.jsonString(album.coverURL))" + (album.paramsJSON.map { ",\"params\":\($0)" } ?? "") + "}"
        }
        return lines.isEmpty ? "[]\n" : "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }

    /// The albums `gallery list WORD...` shows: those where every word is found in the slug,
    /// artist, title, genre, year or a param's value (a label's catalogue number), ignoring
    /// case, accents and width (`beyonce` finds Beyoncé, `ｐｏｐ` Pop, `istanbul` and `ıstanbul`
    /// İstanbul). No words finds every album.
    public struct Search: Sendable {
        let words: [String]

        public init(_ words: [String] = []) {
            self.words = words.map { Self.folded($0.trimmingCharacters(in: .whitespacesAndNewlines)) }.filter { !$0.isEmpty }
        }

        /// Whether there are words to look for.
        public var isEmpty: Bool { words.isEmpty }

        public func matches(_ entry: Catalogue.Entry) -> Bool {
            guard !words.isEmpty else { return true }
            let album = entry.album
            let params = album.params.compactMap { param -> String? in
                switch param.value {
                case .text(let text), .number(let text): text
                case .flag: nil
                }
            }
            let text = Self.folded(([entry.slug, album.artist, album.title, album.genre, String(album.year)] + params).joined(separator: "\u{0}"))
            return words.allSatisfy { text.contains($0) }
        }

        /// Lowercase, without accents, narrow forms of wide ones, Greek's final sigma as `σ`, and
        /// Turkish's dotless `ı` as `i` (the `I` of `Istanbul` lowercases to `i`, so a search
        /// for `ıstanbul` found nothing).
        static func folded(_ text: String) -> String {
            var folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX")).lowercased()
            if folded.unicodeScalars.contains("\u{03C2}") { folded = folded.replacingOccurrences(of: "\u{03C2}", with: "\u{03C3}") }
            if folded.unicodeScalars.contains("\u{0131}") { folded = folded.replacingOccurrences(of: "\u{0131}", with: "i") }
            return folded
        }
    }
}

extension String {
    /// How many columns a terminal gives the text: two for each wide character (Chinese,
    /// Japanese and Korean script, full-width forms, emoji), one for any other, as `wcwidth`
    /// counts them; a combining mark belongs to the character before it.
    var terminalWidth: Int {
        if utf8.allSatisfy({ $0 < 0x80 }) { return utf8.count }
        return reduce(0) { width, character in width + character.terminalWidth }
    }

    /// The text cut to at most `width` terminal columns, its last one an ellipsis if anything
    /// was cut.
    func cut(toWidth width: Int) -> String {
        guard terminalWidth > width else { return self }
        var kept = ""
        var used = 0
        for character in self {
            let next = character.terminalWidth
            guard used + next <= width - 1 else { break }
            kept.append(character)
            used += next
        }
        return kept + "…"
    }

    /// The text as one cell of a terminal table: line breaks and tabs become spaces, and other
    /// control characters and the bidirectional controls are written escaped (`\u{202E}`), so
    /// no cell breaks the table or reorders what follows it.
    func tableCell() -> String {
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return self }
        var cell = ""
        for scalar in unicodeScalars {
            if scalar == "\n" || scalar == "\r" || scalar == "\t" {
                cell += " "
            } else if AlbumRules.isControl(scalar) || AlbumRules.isBidirectionalControl(scalar) {
                cell += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                cell.unicodeScalars.append(scalar)
            }
        }
        return cell
    }
}

extension String {
    /// The text as one line of a terminal's output: control characters (line breaks included,
    /// tabs not), and the bidirectional controls written escaped (`\u{1B}`, `\u{A}`), so text
    /// from an archive or a server (a cover URL, a response) can neither clear the screen nor
    /// break a `path:line:column` line in two nor reorder what follows it.
    public func terminalLine() -> String {
        if utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }) { return self }
        var line = ""
        for scalar in unicodeScalars {
            if scalar != "\t", AlbumRules.isControl(scalar) || AlbumRules.isBidirectionalControl(scalar) {
                line += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                line.unicodeScalars.append(scalar)
            }
        }
        return line
    }
}

extension Character {
    /// Two columns for a wide character (East Asian Wide or Fullwidth, or shown as an emoji),
    /// one otherwise.
    var terminalWidth: Int {
        guard let first = unicodeScalars.first else { return 0 }
        // Zero-width spaces and joiners take no column; half-width katakana's sound marks
        // (ﾊﾟ), though they join the letter before them, take one of their own.
        if [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF].contains(first.value) { return 0 }
        let marks = unicodeScalars.dropFirst().count { $0.value == 0xFF9E || $0.value == 0xFF9F }
        if unicodeScalars.contains("\u{FE0F}") || first.properties.isEmojiPresentation { return 2 }
        if marks > 0 { return 1 + marks }
        switch first.value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
