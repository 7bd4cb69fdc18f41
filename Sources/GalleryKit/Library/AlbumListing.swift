/// How `gallery list` shows the albums: a table for people, JSON for scripts. The numbers are
/// the ones `edit`, `delete` and `add --at` take.
public enum AlbumListing {
    /// An aligned table with a header row, one album per line.
    public static func table(_ catalogue: Catalogue) -> String {
        let header = ["#", "Slug", "Artist", "Album", "Genre", "Year"]
        let rows = catalogue.entries.map { entry in
            ["\(entry.index + 1)", entry.slug, entry.album.artist, entry.album.title, entry.album.genre, "\(entry.album.year)"]
                .map { $0.tableCell() }
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == 0 ? String(repeating: " ", count: widths[0] - cell.count) + cell
                    : column == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ") + "\n"
        }
        return ([header] + rows).map(line).joined()
    }

    /// A JSON array, one album per line, with the number and slug of each.
    public static func json(_ catalogue: Catalogue) -> String {
        let lines = catalogue.entries.map { entry in
            let album = entry.album
            return "{\"number\":\(entry.index + 1),\"slug\":\(Escape.jsonString(entry.slug)),\"artist\":\(Escape.jsonString(album.artist)),"
                + "\"title\":\(Escape.jsonString(album.title)),\"genre\":\(Escape.jsonString(album.genre)),\"year\":\(album.year),"
                + "\"cover_url\":\(Escape.jsonString(album.coverURL))}"
        }
        return lines.isEmpty ? "[]\n" : "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }
}

extension String {
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
