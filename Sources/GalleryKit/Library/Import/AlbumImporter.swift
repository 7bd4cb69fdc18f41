import Foundation

/// Reads albums to import from our own JSON archive, a CSV file with a header row, or the iOS
/// app's `albums.bin` (an NSKeyedArchiver property list), checking each with ``AlbumRules``.
public struct AlbumImporter: Sendable {
    /// An album read from the file, where it was, and the rules it breaks.
    public struct Candidate: Sendable, Hashable {
        /// The album; a field the file did not give readably (a year that is not one, every
        /// field of a row that has too many) stands in as empty or as the first year.
        public var album: Album
        /// What the file calls it: `row 3`, `album 2`.
        public var name: String
        /// The line it starts on, for a format whose lines a reader counts (CSV).
        public var line: Int?
        /// Where messages about it point, file first: `in.csv:4: row 3`, `more.json:5:5: album 2`.
        public var location: String
        /// Every rule it breaks, each a whole message (`in.csv:4: row 3: title is empty; fill
        /// it in`). A file with any imports nothing; its slug is still checked against the
        /// archive and the other albums, so one run lists every fault.
        public var problems: [String] = []

        /// Where it came from, for messages: `row 3 (line 4)`, `album 2 of the file` (not to be
        /// read as the number `gallery list` shows).
        public var origin: String { line.map { "\(name) (line \($0))" } ?? "\(name) of the file" }
    }

    /// What a file holds: its albums and what to say about how it was read.
    public struct Contents: Sendable {
        /// The file's format.
        public var format: Format
        /// Every album, in file order, each with the rules it breaks.
        public var candidates: [Candidate]
        /// CSV rows whose fields are all empty, left out: `row 4 (line 5)`.
        public var blankRows: [String]
        /// What was read other than the user may expect, though not wrong: two columns for one
        /// field (`in.csv:1: the columns 'Title' and 'Album' both fill title; …`).
        public var warnings: [String] = []
        /// What was left out on purpose: columns that fill no field, in one line.
        public var notes: [String] = []
    }

    /// The formats an import understands.
    public enum Format: String, Sendable {
        case json, csv, keyedArchive = "keyed archive"
    }

    /// The archive fields a CSV column can fill.
    public static let fields = ["title", "artist", "genre", "year", "cover_url", "slug"]

    /// CSV column names recognised without `--map`, compared case-insensitively.
    static let columnNames: [String: String] = [
        "title": "title", "album": "title",
        "artist": "artist",
        "genre": "genre", "style": "genre",
        "year": "year", "released": "year",
        "cover": "cover_url", "cover url": "cover_url", "cover_url": "cover_url",
        "slug": "slug",
    ]

    /// `--map column=field` choices: column name, as the user wrote it, to archive field.
    ///
    /// Columns are matched ignoring case, but messages quote them as written.
    public var mappings: [String: String]

    /// An importer with column mappings.
    public init(mappings: [String: String] = [:]) {
        self.mappings = mappings
    }

    /// The format of a file, from its first bytes and its name.
    public static func format(of bytes: [UInt8], name: String) -> Format {
        if bytes.starts(with: Array("bplist00".utf8)) || isXMLPropertyList(bytes) { return .keyedArchive }
        let lowered = name.lowercased()
        if lowered.hasSuffix(".json") { return .json }
        if lowered.hasSuffix(".csv") { return .csv }
        if lowered.hasSuffix(".bin") || lowered.hasSuffix(".plist") { return .keyedArchive }
        let first = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }.first
        // An object, or an array (what `gallery list --json` writes, piped in as `-`).
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .csv
    }

    /// Whether a file starts as an XML property list does (`<?xml …?>`, a doctype, then
    /// `<plist`): the app's archive in XML, whatever its name, or piped in.
    static func isXMLPropertyList(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(512), as: UTF8.self)
        let start = head.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        return (start.hasPrefix("<?xml") || start.hasPrefix("<!DOCTYPE plist") || start.hasPrefix("<plist")) && head.contains("<plist")
    }

    /// Reads every album in a file.
    ///
    /// A CSV row whose fields are all empty (`,,,,`, as spreadsheet programs write for rows
    /// below their data) holds no album and is left out, not refused; `blankRows` names each
    /// (`row 4 (line 5)`) so the command can say so.
    ///
    /// An album that breaks a rule is returned with its ``Candidate/problems``, not refused
    /// here: ``LibraryEditor/importAlbums(_:allowDuplicates:dryRun:)`` refuses the file once
    /// it has also checked the slugs, so one run names every fault.
    ///
    /// - Throws: ``LibraryError`` when the file as a whole cannot be read: not found, not UTF-8,
    ///   malformed CSV or JSON, a header without the columns an album needs.
    public func read(_ url: URL) throws(LibraryError) -> Contents {
        let display = SiteFolder.display(url)
        var info = stat()
        if stat(url.path, &info) == 0, [S_IFCHR, S_IFBLK].contains(info.st_mode & S_IFMT) {
            // /dev/zero never ends; a terminal is read by `gallery import -`.
            throw LibraryError("\(display): this is a device, not a file; name the file to import (or pipe it in with gallery import -)")
        }
        let data: Data
        do {
            // Through a file handle, which reads a pipe (`<(…)`, `/dev/stdin`) to its end too.
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try Self.readToEnd(handle, display: display)
        } catch let error as LibraryError {
            throw error
        } catch {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
            let why = !exists ? "there is no such file; check the path" : isFolder.boolValue ? "this is a folder; name the file to import" : "cannot read this file: \(Self.reason(error))"
            throw LibraryError("\(display): \(why)")
        }
        return try read(data, name: url.lastPathComponent, display: display)
    }

    /// The most an import reads: some 2 million albums of the longest texts an album may hold.
    /// A pipe that never ends (`gallery import - < /dev/zero`) took 8.8 GB in 10 s.
    public static let largestFile = 1 << 30

    /// Everything `handle` gives up to `limit` bytes; more is refused, naming `display`.
    public static func readToEnd(_ handle: FileHandle, display: String, limit: Int = largestFile) throws -> Data {
        var data = Data()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            data += chunk
            guard data.count <= limit else {
                let size = limit >= 1 << 30 ? "\(limit >> 30) GB" : "\(limit >> 20) MB"
                throw LibraryError("\(display): more than \(size) and not at its end; no album file is so large, so check that it is the file you meant")
            }
        }
        return data
    }

    /// Reads every album of a file's bytes, as ``read(_:)`` does (for standard input, `-`).
    ///
    /// - Parameters:
    ///   - name: The file's name, whose extension tells CSV from JSON when the bytes do not.
    ///   - display: How messages name the file (`<stdin>`).
    public func read(_ data: Data, name: String, display: String) throws(LibraryError) -> Contents {
        let bytes = Array(data)
        guard !bytes.isEmpty else { throw LibraryError("\(display): the file is empty; nothing to import") }
        let format = Self.format(of: bytes, name: name)
        // A Hugo page (front matter between --- or +++) or a YAML or TOML file would be read as
        // CSV and refused for its quotes: say what it is, and what gallery reads.
        let lowered = name.lowercased()
        let frontMatter = bytes.starts(with: Array("---".utf8)) || bytes.starts(with: Array("+++".utf8))
        if format == .csv, frontMatter || [".md", ".markdown", ".yaml", ".yml", ".toml"].contains(where: { lowered.hasSuffix($0) }) {
            throw LibraryError("\(display): this is \(frontMatter || lowered.hasSuffix(".md") || lowered.hasSuffix(".markdown") ? "a page with front matter (as Hugo's content/*.md)" : "YAML or TOML"), which gallery does not read; import JSON, CSV with a header row (title, artist, genre, year, cover) or the iOS app's albums.bin: a short script can turn front matter into CSV rows")
        }
        switch format {
        case .json: return Contents(format: format, candidates: try readJSON(bytes, display: display), blankRows: [])
        case .csv: return try readCSV(bytes, display: display)
        case .keyedArchive: return Contents(format: format, candidates: try KeyedArchiveReader.read(data, display: display), blankRows: [])
        }
    }

    /// The system's reason in an error from reading a file, without Foundation's wrapping.
    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying.map({ Int32($0.code) }), underlying?.domain == NSPOSIXErrorDomain { return String(cString: strerror(code)) }
        return error.localizedDescription
    }

    private func readJSON(_ bytes: [UInt8], display: String) throws(LibraryError) -> [Candidate] {
        var archive: AlbumArchive
        // What `gallery list --json` writes: an array of albums, each with its number in the
        // list. Read as the archive it was listed from (the prefix keeps every line's number).
        let isList = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "[")
        let wrapped = isList ? Array("{\"version\": 1, \"albums\": ".utf8) + bytes + Array("}".utf8) : bytes
        do {
            archive = try AlbumArchive.decode(wrapped, path: display).archive
        } catch {
            throw LibraryError(diagnostics: error.diagnostics.filter { $0.severity == .error })
        }
        if isList {
            for index in archive.albums.indices { archive.albums[index].extras.removeAll { $0.key == "number" } }
        }
        return archive.albums.enumerated().map { offset, album in
            let position = archive.positions.indices.contains(offset) ? ":\(archive.positions[offset])" : ""
            let location = "\(display)\(position): album \(offset + 1)"
            // The loader has checked everything but the characters, which an archive may hold
            // and a new album may not.
            let problems = AlbumRules.problems(in: album).map { "\(location): \($0)" }
            return Candidate(album: album, name: "album \(offset + 1)", location: location, problems: problems)
        }
    }

    private func readCSV(_ bytes: [UInt8], display: String) throws(LibraryError) -> Contents {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw LibraryError("\(display): not UTF-8 text; save the CSV as UTF-8")
        }
        let table: CSVTable
        do {
            table = try CSVTable(parsing: text)
        } catch {
            throw LibraryError("\(display):\(error.line): malformed CSV: \(error.message)")
        }
        // A header that holds more than one kind of separator is read by the one it has most
        // often: said, so a file read the wrong way is told at once, and with the columns it
        // then lacks when it was.
        let counts = table.separatorCounts.filter { $0.value > 0 }
        var separatorNote: String?
        if counts.count > 1 {
            let word = CSVTable.plainName(of:)
            let others = counts.filter { $0.key != table.separator }.map { "\($0.value) \(word($0.key))\($0.value == 1 ? "" : "s")" }.sorted().joined(separator: " and ")
            separatorNote = "\(display):1: read as separated by \(word(table.separator))s, which the header has most often (\(counts[table.separator] ?? 0), against \(others)); an Excel first line sep=X names the separator outright"
        }
        let choice: ColumnChoice
        do throws(LibraryError) {
            choice = try columnFields(table.header, display: display)
        } catch {
            throw LibraryError(diagnostics: error.diagnostics, reasons: error.reasons + (separatorNote.map { [$0] } ?? []))
        }
        let columns = choice.columns
        var candidates: [Candidate] = []
        var blankRows: [String] = []
        for (offset, row) in table.rows.enumerated() {
            let origin = "row \(offset + 1)"
            let location = "\(display):\(row.line): \(origin)"
            guard !row.fields.allSatisfy(AlbumRules.isBlank) else {
                blankRows.append("\(origin) (line \(row.line))")
                continue
            }
            // One fault, its fields unchecked: which field is which is anyone's guess.
            if let reason = Self.fieldCountProblem(row.fields.count, header: table.header.count, separator: table.separator) {
                let blank = Album(title: "", artist: "", genre: "", year: AlbumRules.years.lowerBound, coverURL: "")
                candidates.append(Candidate(album: blank, name: origin, line: row.line, location: location, problems: ["\(location): \(reason)"]))
                continue
            }
            var values: [String: String] = [:]
            for (column, field) in columns { values[field] = row.fields[column].trimmingCharacters(in: .whitespaces) }
            let yearText = values["year"] ?? ""
            let year = Self.year(from: yearText)
            let slug = values["slug"].flatMap { $0.isEmpty ? nil : $0 }
            // A stand-in for a bad year, so that the other fields are still checked.
            var album = Album(title: values["title"] ?? "", artist: values["artist"] ?? "", genre: values["genre"] ?? "", year: year ?? AlbumRules.years.lowerBound, coverURL: values["cover_url"] ?? "", slug: slug)
            // The album's own fields (`--map Preis=params.price`); an empty cell gives none.
            let params = columns.filter { $0.field.hasPrefix("params.") }.sorted { $0.column < $1.column }.map(\.field)
                .compactMap { field in values[field].flatMap { $0.isEmpty ? nil : (key: String(field.dropFirst(7)), value: Optional(Album.Param(typed: $0))) } }
            if !params.isEmpty { album.setParams(params) }
            var rowProblems = AlbumRules.problems(in: album).map { "\($0.field == "cover_url" ? "cover" : $0.field) \($0.reason)" }
            if year == nil {
                let yearProblem = AlbumRules.isBlank(yearText)
                    ? "year is empty; fill it in"
                    : "the year \"\(yearText)\" is not a year; write it as 1999 or a date such as 1999-05-01"
                // In field order: after the cover, before the slug.
                rowProblems.insert(yearProblem, at: rowProblems.firstIndex { $0.hasPrefix("slug ") } ?? rowProblems.endIndex)
            }
            candidates.append(Candidate(album: album, name: origin, line: row.line, location: location, problems: rowProblems.map { "\(location): \($0)" }))
        }
        return Contents(format: .csv, candidates: candidates, blankRows: blankRows, warnings: choice.warnings, notes: (separatorNote.map { [$0] } ?? []) + choice.notes)
    }

    /// Why a row's fields cannot be matched to the header's columns, or `nil` if they can.
    static func fieldCountProblem(_ count: Int, header: Int, separator: Unicode.Scalar) -> String? {
        guard count != header else { return nil }
        let advice = count > header
            ? "put a field that holds \(CSVTable.name(of: separator)) in double quotes, or name the extra column in the header"
            : "write every field, leaving a missing one empty (\(separator == "\t" ? "two tabs in a row" : "\(separator)\(separator)"))"
        return "this row has \(count) field\(count == 1 ? "" : "s") but the header has \(header); \(advice)"
    }

    /// The year in a cell: a four-digit year from 1000 to 9999 (`1999`, or `1999.0` as a
    /// spreadsheet or pandas may write a whole number), or the year of an ISO date that exists
    /// (`1999-05`, `1999-05-01`, `2000-02-29`). Anything else (`May 1980`, `1982abc`,
    /// `1980-13-45`, `01/05/1999`) is not taken for a year.
    static func year(from text: String) -> Int? {
        let parts = text.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4, let year = number(parts[0]), AlbumRules.yearProblem(year) == nil else {
            return parts.count == 1 ? wholeNumberYear(text) : nil
        }
        guard parts.count > 1 else { return year }
        guard parts[1].count == 2, let month = number(parts[1]), (1...12).contains(month) else { return nil }
        guard parts.count > 2 else { return year }
        guard parts[2].count == 2, let day = number(parts[2]), (1...daysIn(month: month, of: year)).contains(day) else { return nil }
        return year
    }

    /// A year written as a whole number with a decimal part of zeros (`1999.0`, `1999,00`).
    private static func wholeNumberYear(_ text: String) -> Int? {
        guard let mark = text.firstIndex(where: { $0 == "." || $0 == "," }) else { return nil }
        let decimals = text[text.index(after: mark)...]
        guard !decimals.isEmpty, decimals.allSatisfy({ $0 == "0" }) else { return nil }
        let whole = text[..<mark]
        return whole.utf8.count == 4 ? number(whole.utf8).flatMap { AlbumRules.yearProblem($0) == nil ? $0 : nil } : nil
    }

    /// The value of ASCII digits, or `nil` if there are none or anything else.
    private static func number(_ digits: Substring.UTF8View) -> Int? {
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// The days in a month of the Gregorian calendar.
    private static func daysIn(month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
