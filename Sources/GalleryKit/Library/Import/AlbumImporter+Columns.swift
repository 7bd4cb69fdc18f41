extension AlbumImporter {
    /// Which CSV column fills which field, and what to say about the columns that lost a field
    /// to another or fill none.
    struct ColumnChoice {
        /// Each field read and the 0-based column it is read from.
        var columns: [(column: Int, field: String)]
        /// Fields that more than one column could fill, saying which is read and how to choose.
        var warnings: [String]
        /// The columns that fill no field, in one line (or none).
        var notes: [String]
    }

    /// Which column fills which field: a column named in `--map` fills its field only, and
    /// before any column recognised by name; among columns of one kind, the first.
    ///
    /// - Throws: ``LibraryError`` for every `--map` at fault (not a field, no such column, two
    ///   for one field) and every field no column fills.
    func columnFields(_ header: [String], display: String) throws(LibraryError) -> ColumnChoice {
        // Every --map at fault, in a stable order, each quoted as the user wrote it.
        let choices = mappings.sorted { $0.key < $1.key }
        var mistakes = choices.filter { !Self.isField($0.value) }.map { column, field in
            field.hasPrefix("params.")
                ? "--map \(column)=\(field): \(Album.paramNameProblem(String(field.dropFirst(7))) ?? "")"
                : "--map \(column)=\(field): '\(field)' is not a field; use one of \(Self.fields.joined(separator: ", ")), or params.NAME for one of the album's own fields (--map \(Self.shellWord("\(column)=params.\(Album.paramNameProblem(field) == nil ? field : Self.paramName(column))")))"
        }
        let mapsByField = Dictionary(grouping: choices.filter { Self.isField($0.value) }, by: \.value)
        mistakes += (Self.fields + Set(mapsByField.keys.filter { $0.hasPrefix("params.") }).sorted()).compactMap { field in
            guard let maps = mapsByField[field], maps.count > 1 else { return nil }
            return "\(Self.list(maps.map { "--map \($0.key)=\($0.value)" })) \(maps.count == 2 ? "both" : "all") fill \(field); keep one"
        }
        let headerKeys = Set(header.map { $0.lowercased() })
        mistakes += choices.filter { !headerKeys.contains($0.key.lowercased()) }.map { column, field in
            "\(display):1: --map \(column)=\(field): the header has no column '\(column)'; use one of its columns (in any case): \(header.map { "'\($0)'" }.joined(separator: ", "))"
        }
        guard mistakes.isEmpty else { throw LibraryError(reasons: mistakes) }

        let mapped = Dictionary(mappings.map { ($0.key.lowercased(), $0.value) }) { $1 }
        var claims: [String: [(column: Int, mapped: Bool)]] = [:]
        var unused: [Int] = []
        for (index, name) in header.enumerated() {
            let key = name.lowercased()
            if let field = mapped[key] {
                claims[field, default: []].append((index, true))
            } else if let field = Self.columnNames[key] {
                claims[field, default: []].append((index, false))
            } else {
                unused.append(index)
            }
        }
        var assigned: [String: Int] = [:]
        var warnings: [String] = []
        for field in Self.fields + claims.keys.filter({ $0.hasPrefix("params.") }).sorted() {
            guard let claimants = claims[field] else { continue }
            // A --map is the user's choice: columns that only match by name give way to it.
            let explicit = claimants.filter(\.mapped)
            let pool = (explicit.isEmpty ? claimants : explicit).map(\.column)
            let chosen = pool[0]
            assigned[field] = chosen
            warnings += competition(for: field, chosen: chosen, among: pool, header: header, display: display)
        }

        let required = ["title": "Title or Album", "artist": "Artist", "genre": "Genre or Style", "year": "Year or Released", "cover_url": "Cover or Cover URL"]
        let missing = required.keys.sorted().filter { assigned[$0] == nil }
        guard missing.isEmpty else {
            // One column where five are needed: most likely a separator we do not read (`|`).
            let separatorHint = header.count == 1
                ? ["\(display):1: the header row is a single column, '\(header[0])'; columns must be separated by commas, semicolons or tabs, so save the file with one of them"]
                : []
            throw LibraryError(reasons: separatorHint + missing.map { "\(display):1: no column for \($0); name one \(required[$0] ?? $0), or pass --map COLUMN=\($0)" })
        }
        return ColumnChoice(columns: assigned.map { ($0.value, $0.key) }, warnings: warnings, notes: Self.unusedNote(unused, header: header, display: display))
    }

    /// What to say when more than one column could fill `field`: columns of the chosen one's
    /// name (which `--map` cannot tell apart), and columns of other names (which it can).
    private func competition(for field: String, chosen: Int, among columns: [Int], header: [String], display: String) -> [String] {
        let name = header[chosen]
        var warnings: [String] = []
        let twins = columns.filter { $0 != chosen && header[$0].lowercased() == name.lowercased() }
        if !twins.isEmpty {
            let numbers = Self.list(([chosen] + twins).map { String($0 + 1) })
            warnings.append("\(display):1: columns \(numbers) are \(twins.count == 1 ? "both" : "all") named '\(name)'; column \(chosen + 1) is read as \(field); to read another, rename it in the header and pass --map NEWNAME=\(field)")
        }
        var others: [String] = []
        for column in columns where header[column].lowercased() != name.lowercased() && !others.contains(where: { $0.lowercased() == header[column].lowercased() }) {
            others.append(header[column])
        }
        if !others.isEmpty {
            let names = Self.list(([name] + others).map { "'\($0)'" })
            let maps = others.map { "--map \(Self.shellWord("\($0)=\(field)"))" }.joined(separator: " or ")
            warnings.append("\(display):1: the columns \(names) \(others.count == 1 ? "both" : "all") fill \(field); '\(name)' is read; pass \(maps) to read \(others.count == 1 ? "'\(others[0])'" : "another") instead")
        }
        return warnings
    }

    /// One line for the columns that fill no field, or none when every column fills one.
    private static func unusedNote(_ columns: [Int], header: [String], display: String) -> [String] {
        guard !columns.isEmpty else { return [] }
        let names = columns.map { header[$0].isEmpty ? "column \($0 + 1) (no name)" : "'\(header[$0])'" }
        let subject = columns.count > 1 ? "the columns \(list(names)) fill" : "\(header[columns[0]].isEmpty ? "" : "the column ")\(names[0]) fills"
        // Hugo's draft and publish dates keep a page back there; here every row is published.
        let draft = columns.map { header[$0] }.first { AlbumRules.isUnpublishingName($0.trimmingCharacters(in: .whitespaces)) }
        let drafts = draft.map { " (gallery has no drafts or publish dates: every row is imported and published whatever its '\($0)' says, so leave unreleased albums out of the file)" } ?? ""
        return ["\(display):1: \(subject) no field and \(columns.count > 1 ? "are" : "is") not imported; --map COLUMN=FIELD reads one into a field\(drafts)"]
    }

    /// Whether `--map` may name `field`: one of ``fields``, or `params.NAME` for one of the
    /// album's own fields.
    static func isField(_ field: String) -> Bool {
        fields.contains(field) || field.hasPrefix("params.") && Album.paramNameProblem(String(field.dropFirst(7))) == nil
    }

    /// A param name made from a column's (`Preis` → `preis`, `In Stock` → `in_stock`), for advice.
    static func paramName(_ column: String) -> String {
        let name = String(column.lowercased().map { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII ? $0 : "_" })
        return Album.paramNameProblem(name) == nil ? name : "NAME"
    }

    /// Items as a sentence lists them: `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        items.count > 1 ? items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1] : items.joined()
    }

    /// A word as a shell reads it back: in double quotes when it holds a space or a character
    /// the shell treats specially.
    private static func shellWord(_ word: String) -> String {
        word.allSatisfy { $0.isLetter || $0.isNumber || "_-=.,/:".contains($0) } ? word : "\"\(word.replacingOccurrences(of: "\"", with: "\\\""))\""
    }
}
