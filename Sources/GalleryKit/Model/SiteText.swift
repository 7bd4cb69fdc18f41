import TOMLKit

/// `[text]`: the words gallery itself puts on pages, English unless `gallery.toml` gives others.
///
/// The built-in templates show them as `{{text.NAME}}`; gallery's own strings (a tile's `alt`,
/// the strip's titles, the album count, the script's status line) are made from the patterns,
/// whose `{title}`, `{artist}`… are filled in per album. A site in another language sets
/// `language` and translates these, without copying a template.
public struct SiteText: Sendable, Hashable {
    /// One of the words: its name in `[text]`, its English, and the placeholders it may use.
    public struct Entry: Sendable {
        /// Its key in `[text]`, and its name in templates (`{{text.by}}`).
        public let name: String
        /// The English gallery uses when the site gives none.
        public let english: String
        /// The `{names}` it may contain, filled in where it is used; empty for plain words.
        public let placeholders: [String]
    }

    /// Every word gallery puts on a page, in the README's order.
    public static let entries: [Entry] = [
        Entry(name: "albums", english: "Albums", placeholders: []),
        Entry(name: "carousel_help", english: "Album covers: the arrow keys, Home and End move between albums, Enter opens one", placeholders: []),
        Entry(name: "skip_albums", english: "Skip the album covers", placeholders: []),
        Entry(name: "previous_album", english: "Previous album", placeholders: []),
        Entry(name: "next_album", english: "Next album", placeholders: []),
        Entry(name: "album_navigation", english: "Previous and next album", placeholders: []),
        Entry(name: "about_album", english: "About this album", placeholders: []),
        Entry(name: "artist", english: "Artist", placeholders: []),
        Entry(name: "album", english: "Album", placeholders: []),
        Entry(name: "genre", english: "Genre", placeholders: []),
        Entry(name: "year", english: "Year", placeholders: []),
        Entry(name: "by", english: "by", placeholders: []),
        Entry(name: "index_pages", english: "Index pages", placeholders: []),
        Entry(name: "previous_page", english: "Previous page", placeholders: []),
        Entry(name: "next_page", english: "Next page", placeholders: []),
        Entry(name: "no_albums", english: "There are no albums here yet.", placeholders: []),
        Entry(name: "not_found", english: "Not found", placeholders: []),
        Entry(name: "not_found_message", english: "There is no album here.", placeholders: []),
        Entry(name: "back_to_albums", english: "Back to all albums", placeholders: []),
        Entry(name: "carousel_svg", english: "carousel as SVG", placeholders: []),
        Entry(name: "data", english: "data", placeholders: []),
        Entry(name: "album_count_one", english: "{count} album", placeholders: ["count"]),
        Entry(name: "album_count", english: "{count} albums", placeholders: ["count"]),
        Entry(name: "page_of", english: "Page {number} of {count}", placeholders: ["number", "count"]),
        Entry(name: "album_by", english: "{title} by {artist}", placeholders: albumFields),
        Entry(name: "album_description", english: "{title} by {artist} ({genre}, {year})", placeholders: albumFields),
        Entry(name: "cover_of", english: "Cover of {title} by {artist}", placeholders: albumFields),
        Entry(name: "no_cover_for", english: "No cover for {title} by {artist}", placeholders: albumFields),
        Entry(name: "status", english: "{number} of {count}: {title} by {artist}", placeholders: ["number", "count"] + albumFields),
    ]

    /// The placeholders every pattern about one album may use.
    static let albumFields = ["title", "artist", "genre", "year"]

    /// The entries by name.
    static let byName = Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0) })

    /// The names, for telling a misspelt key.
    public static var names: Set<String> { Set(byName.keys) }

    /// The words the site gave, by name; the rest are English.
    public private(set) var given: [String: String] = [:]

    /// English throughout.
    public init() {}

    /// The word or pattern called `name` (one of ``entries``), as the site gives it or in English.
    public subscript(name: String) -> String {
        given[name] ?? Self.byName[name]?.english ?? ""
    }

    /// The words given, in one string that differs whenever they do (for page keys).
    var fingerprint: String {
        given.sorted { $0.key < $1.key }.map { $0.key + "\u{1}" + $0.value }.joined(separator: "\u{2}")
    }

    /// Sets a word; `text` must already have passed ``problem(name:text:)``.
    mutating func set(_ name: String, to text: String) {
        given[name] = text
    }

    /// What is wrong with `text` as the word `name`, or `nil`: a placeholder it cannot use.
    static func problem(name: String, text: String) -> String? {
        guard let entry = byName[name] else { return nil }
        // Every one of these is shown, or read out as a name (an `alt`, an `aria-label`): empty,
        // a region had no name, a cover read as decoration, a table row no heading.
        if text.allSatisfy(\.isWhitespace) {
            return "[text] \(name) is empty, but pages show it or read it out to screen readers (in English, \"\(entry.english)\"); give it words, or delete the line to keep the English"
        }
        let unknown = TextPattern(text).slots.filter { !entry.placeholders.contains($0) }
        guard let first = unknown.first else { return nil }
        let allowed = entry.placeholders.isEmpty
            ? "it takes no placeholders"
            : "it can use " + entry.placeholders.map { "{\($0)}" }.joined(separator: ", ")
        return "[text] \(name) uses {\(first)}, which it does not know; \(allowed)"
    }

    /// The pattern `name`, filled in with `values` (`{title}` → `values("title")`).
    func fill(_ name: String, _ values: (String) -> String?) -> String {
        TextPattern(self[name]).fill(values)
    }

    /// "1 album", "5 albums": `album_count_one` for one, `album_count` for any other number.
    public func albumCount(_ count: Int) -> String {
        fill(count == 1 ? "album_count_one" : "album_count") { $0 == "count" ? String(count) : nil }
    }
}

/// Text with `{name}` placeholders: a `{` followed by letters and underscores and a `}`. Any
/// other brace is text.
struct TextPattern: Sendable {
    enum Part: Sendable {
        case text(Substring)
        case slot(String)
    }

    let parts: [Part]

    init(_ pattern: String) {
        var parts: [Part] = []
        var rest = pattern[...]
        while let open = rest.firstIndex(of: "{") {
            let afterOpen = rest.index(after: open)
            let name = rest[afterOpen...].prefix { $0.isASCII && ($0.isLetter || $0 == "_") }
            guard !name.isEmpty, name.endIndex < rest.endIndex, rest[name.endIndex] == "}" else {
                parts.append(.text(rest[...open]))
                rest = rest[afterOpen...]
                continue
            }
            if open > rest.startIndex { parts.append(.text(rest[..<open])) }
            parts.append(.slot(String(name)))
            rest = rest[rest.index(after: name.endIndex)...]
        }
        if !rest.isEmpty { parts.append(.text(rest)) }
        self.parts = parts
    }

    /// The placeholders' names, in order.
    var slots: [String] {
        parts.compactMap { if case .slot(let name) = $0 { name } else { nil } }
    }

    /// The text with an album's fields in place of `{title}`, `{artist}`, `{genre}`, `{year}`
    /// (for a page, fields already clean of characters XML forbids).
    func fillAlbum(title: @autoclosure () -> String, artist: @autoclosure () -> String, genre: @autoclosure () -> String, year: Int) -> String {
        fill { field in
            switch field {
            case "title": title()
            case "artist": artist()
            case "genre": genre()
            case "year": String(year)
            default: nil
            }
        }
    }

    /// The text with each placeholder replaced; one `values` does not know is left as written.
    func fill(_ values: (String) -> String?) -> String {
        var result = ""
        // Room for most filled texts (a tile's alt, a page's title), so the parts do not grow it
        // again and again.
        result.reserveCapacity(64)
        for part in parts {
            switch part {
            case .text(let text): result += text
            case .slot(let name): result += values(name) ?? "{\(name)}"
            }
        }
        return result
    }
}

extension TOMLReader {
    /// Reads `[text]`: each key one of ``SiteText/entries``, each value a string whose
    /// placeholders that word can fill. Characters XML forbids are replaced, as in album text.
    mutating func readText(_ section: TOMLTable, into text: inout SiteText) {
        read(section, section: "text") { reader, key, value in
            guard SiteText.byName[key] != nil else { return false }
            guard let words = reader.string(value, key: key, section: "text") else { return true }
            if let problem = SiteText.problem(name: key, text: words) {
                reader.error(problem, key: key, section: "text")
            } else {
                text.set(key, to: Escape.xmlCharacters(words))
            }
            return true
        }
    }
}
