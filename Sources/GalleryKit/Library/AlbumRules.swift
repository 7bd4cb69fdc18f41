/// What makes an album acceptable: one set of rules for the archive loader, `gallery add`,
/// `gallery edit` and `gallery import`.
public enum AlbumRules {
    /// The smallest and largest year accepted.
    public static let years = 1000...9999

    /// A field that breaks a rule, and how.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The archive key (`title`, `year`, `cover_url`, `slug`…).
        public var field: String
        /// What is wrong and what to do.
        public var reason: String

        public var description: String { "\(field) \(reason)" }
    }

    /// Whether a text field counts as empty (nothing but whitespace).
    public static func isBlank(_ text: String) -> Bool {
        // A printable ASCII character settles it without breaking the text into characters.
        if text.utf8.contains(where: { $0 > 0x20 && $0 < 0x7F }) { return false }
        return text.allSatisfy(\.isWhitespace)
    }

    /// The year a person typed (`gallery add --year`), read as an import reads a year cell:
    /// spaces around it ignored, a whole number (any, so that the range check can say what is
    /// wrong with `20`), `1999.0`, or the year of an ISO date (`1999-05-01`); `nil` for anything
    /// else (`'99`, `May 1999`).
    public static func year(typed text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return Int(trimmed) ?? AlbumImporter.year(from: trimmed)
    }

    /// The reason a year is refused, or `nil` if it is fine.
    public static func yearProblem(_ year: Int) -> String? {
        years.contains(year) ? nil : "is \(year), which is not a year; write a whole number from \(years.lowerBound) to \(years.upperBound)"
    }

    /// Whether a slug is only digits, which the library commands read as an album's number.
    static func isNumberLike(_ slug: String) -> Bool {
        slug.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// The reason an owner's slug is refused, or `nil` if it is fine.
    public static func slugProblem(_ slug: String) -> String? {
        guard !Slug.isValid(slug) else { return nil }
        // Made from no more than a slug can hold: a 50 MB slug took 13 s to be suggested one.
        let suggestion = Slug.make(from: String(slug.prefix(Slug.maximumLength * 2)))
        let tryThis = suggestion.isEmpty || suggestion == slug ? "" : "; try \"\(suggestion)\""
        if slug.isEmpty { return "\"\" is empty; leave the slug out to have one made from the artist and title" }
        let bytes = slug.utf8
        let plain = bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
        // Made only of what a slug may hold: say which rule it breaks.
        if plain, bytes.count > Slug.longestGiven {
            return "\"\(slug.clippedForMessage)\" is \(bytes.count) characters long, more than the \(Slug.longestGiven) a slug may have" + tryThis
        }
        if plain, bytes.first == 0x2D || bytes.last == 0x2D {
            return "\"\(slug.clippedForMessage)\" is no slug: it starts or ends with a dash" + tryThis
        }
        if plain {
            return "\"\(slug.clippedForMessage)\" is no slug: it has two dashes in a row" + tryThis
        }
        return "\"\(slug.clippedForMessage)\" is not lowercase ASCII letters, digits and dashes" + tryThis
    }

    /// Why an album may not take a slug that `holder`'s page already lives under (its own slug,
    /// or the one ``Catalogue`` derived for it): the album there would quietly move to `slug-2`,
    /// breaking its published address.
    public static func slugTakenReason(_ slug: String, heldBy holder: Catalogue.Entry) -> String {
        "\"\(slug)\" is already the page address of album \(holder.index + 1), \(LibraryChange.name(holder.album)); choose another slug"
    }

    /// Whether a character is a control character (C0 or C1) or Unicode's line or paragraph
    /// separator (U+2028, U+2029), which break a line as a line feed does.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// Whether a character is a bidirectional embedding, override (U+202A–U+202E) or isolate
    /// (U+2066–U+2069): invisible controls that reorder the text around them.
    public static func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// The reason text is refused as a title, artist or genre, or `nil` if it is fine: it holds
    /// a control character (C0 or C1, tab and line breaks included) or a bidirectional
    /// embedding, override or isolate.
    ///
    /// Right-to-left text (Arabic, Hebrew) needs none of these, and the marks U+200E and U+200F
    /// stay allowed. The archive loader does not apply this rule, so an archive that already
    /// holds such characters still builds; the library commands refuse new ones.
    public static func characterProblem(_ text: String) -> String? {
        // Printable ASCII (most names) holds none of them.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return nil }
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                let name = [0x09: " (tab)", 0x0A: " (line feed)", 0x0D: " (carriage return)", 0x2028: " (line separator)", 0x2029: " (paragraph separator)"][scalar.value] ?? ""
                return "contains the control character \(code(scalar))\(name); remove it"
            }
            if isBidirectionalControl(scalar) {
                return "contains \(code(scalar)) \(scalar.properties.name ?? ""), a bidirectional control that reorders the text around it; remove it (right-to-left text needs none)"
            }
        }
        return nil
    }

    /// The longest a title, artist or genre may be, in characters (Unicode scalars), and a
    /// cover URL: far beyond any real one (the longest album titles run to about 900), short of
    /// what a paste of a whole document, or a hostile archive, puts into every page of its strip.
    public static let maxTextLength = 2_000
    public static let maxCoverURLLength = 8_192
    /// The longest param value: ten titles, room for liner notes, not for a pasted document or
    /// a hostile archive's 50 MB, which its page and the data files would carry.
    public static let maxParamLength = 20_000

    /// Why a field's value is too long, or `nil`.
    public static func lengthProblem(_ value: String, field: String) -> String? {
        let limit = field == "cover_url" ? maxCoverURLLength : field == "param" ? maxParamLength : maxTextLength
        // Counted only as far as needed: a hostile value can be 100 MB.
        guard value.utf8.count > limit else { return nil }
        let length = value.unicodeScalars.count
        guard length > limit else { return nil }
        return "is \(length) characters long; at most \(limit) (was a whole text pasted into it?)"
    }

    /// Whether a key or column name is one that keeps a page unpublished in Hugo (`draft`,
    /// `publishDate`, `expiry_date`, `Publish Date`…): gallery has none, and publishes the album,
    /// which the import and the archive's warnings say.
    public static func isUnpublishingName(_ name: String) -> Bool {
        let folded = name.lowercased().filter { $0 != " " && $0 != "_" }
        return ["draft", "drafts", "published", "publishdate", "expirydate"].contains(folded)
    }

    /// A character as Unicode writes it: `U+0009`, `U+202E`.
    public static func code(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Every rule an album breaks, in field order.
    ///
    /// With `before` (an edit), only the fields that differ from it are checked: a field the
    /// edit leaves alone is never a reason to refuse it.
    public static func problems(in album: Album, changedFrom before: Album? = nil) -> [Problem] {
        var problems: [Problem] = []
        let texts: [(field: String, value: KeyPath<Album, String>)] = [("title", \.title), ("artist", \.artist), ("genre", \.genre), ("cover_url", \.coverURL)]
        for (field, path) in texts where before?[keyPath: path] != album[keyPath: path] {
            let value = album[keyPath: path]
            if isBlank(value) {
                // Artwork that is not ready yet is common in a back catalogue.
                let advice = field == "cover_url" ? " (for artwork not ready yet, name one shared image, such as covers/coming-soon.jpg)" : ""
                problems.append(Problem(field: field, reason: "is empty; fill it in\(advice)"))
            } else if let reason = lengthProblem(value, field: field) {
                problems.append(Problem(field: field, reason: reason))
            } else if field != "cover_url", let reason = characterProblem(value) {
                problems.append(Problem(field: field, reason: reason))
            }
        }
        if before?.year != album.year, let reason = yearProblem(album.year) { problems.append(Problem(field: "year", reason: reason)) }
        // A param too long to carry (an import's column of whole documents); the params are
        // parsed only when the album has some that changed.
        if let json = album.paramsJSON, json != before?.paramsJSON {
            let earlier = Dictionary((before?.params ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            for (key, value) in album.params where earlier[key] != value {
                if case .text(let text) = value, let reason = lengthProblem(text, field: "param") {
                    problems.append(Problem(field: "params.\(key)", reason: reason))
                }
            }
        }
        if before?.slug != album.slug, let slug = album.slug {
            if let reason = slugProblem(slug) {
                problems.append(Problem(field: "slug", reason: reason))
            } else if isNumberLike(slug) {
                // `gallery edit 3` means album 3; a page named 3 could never be told apart.
                problems.append(Problem(field: "slug", reason: "\"\(slug)\" is only digits, which `gallery edit` and `delete` read as an album's number; try \"album-\(slug)\""))
            }
        }
        return problems
    }

    /// Problems an archive has as a whole: duplicate explicit slugs.
    public static func slugClashes(in albums: [Album]) -> [Problem] {
        var owners: [String: Int] = [:]
        var problems: [Problem] = []
        for (index, album) in albums.enumerated() {
            guard let slug = album.slug else { continue }
            if let owner = owners[slug] {
                problems.append(Problem(field: "slug", reason: "\"\(slug)\" of album \(index + 1) is already album \(owner + 1)'s; slugs must be unique"))
            } else {
                owners[slug] = index
            }
        }
        return problems
    }
}
