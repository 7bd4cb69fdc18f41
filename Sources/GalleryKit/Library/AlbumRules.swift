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

    /// The reason a year is refused, or `nil` if it is fine.
    public static func yearProblem(_ year: Int) -> String? {
        years.contains(year) ? nil : "is \(year), which is not a year; write a whole number from \(years.lowerBound) to \(years.upperBound)"
    }

    /// The reason an owner's slug is refused, or `nil` if it is fine.
    public static func slugProblem(_ slug: String) -> String? {
        guard !Slug.isValid(slug) else { return nil }
        let suggestion = Slug.make(from: slug)
        return "\"\(slug)\" is not lowercase ASCII letters, digits and dashes" + (suggestion.isEmpty ? "" : "; try \"\(suggestion)\"")
    }

    /// Why an album may not take a slug that `holder`'s page already lives under (its own slug,
    /// or the one ``Catalogue`` derived for it): the album there would quietly move to `slug-2`,
    /// breaking its published address.
    public static func slugTakenReason(_ slug: String, heldBy holder: Catalogue.Entry) -> String {
        "\"\(slug)\" is already the page address of album \(holder.index + 1), \(LibraryChange.name(holder.album)); choose another slug"
    }

    /// Every rule an album breaks, in field order.
    public static func problems(in album: Album) -> [Problem] {
        var problems: [Problem] = []
        for (field, value) in [("title", album.title), ("artist", album.artist), ("genre", album.genre), ("cover_url", album.coverURL)] where isBlank(value) {
            problems.append(Problem(field: field, reason: "is empty; fill it in"))
        }
        if let reason = yearProblem(album.year) { problems.append(Problem(field: "year", reason: reason)) }
        if let slug = album.slug, let reason = slugProblem(slug) { problems.append(Problem(field: "slug", reason: reason)) }
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
