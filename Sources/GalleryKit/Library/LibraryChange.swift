/// One change to the archive, as the undo history remembers it: the seed's memento of
/// (album, index), generalised to every library command.
public enum LibraryChange: Sendable, Hashable, Codable {
    /// An album was inserted at `index`.
    case added(index: Int, album: Album)
    /// The album at `index` was removed; `pinned` are later albums of the same artist and title
    /// as they were before the delete gave each its derived slug as its own, so that none moved
    /// to the deleted album's page address (`nil` in histories written before there were any).
    case deleted(index: Int, album: Album, pinned: [Placed]? = nil)
    /// The album at `index` changed from `before` to `after`.
    case edited(index: Int, before: Album, after: Album)
    /// Albums were appended by an import, at these indices; with `gallery import --update`,
    /// albums of the archive also took the file's values (`nil` in histories written before
    /// imports updated, and when none did).
    case imported([Placed], updated: [Replaced]? = nil)
    /// Changes made by one command, in order (`gallery delete 4 7 9`: the deletes, highest
    /// number first); undone together, in reverse order.
    case batch([LibraryChange])

    /// An album and where it went.
    public struct Placed: Sendable, Hashable, Codable {
        /// Its index after the change.
        public var index: Int
        /// The album.
        public var album: Album

        /// Creates a placed album.
        public init(index: Int, album: Album) {
            self.index = index
            self.album = album
        }
    }

    /// An album of the archive, before and after a change.
    public struct Replaced: Sendable, Hashable, Codable {
        /// Its index, which the change did not move.
        public var index: Int
        /// The album before the change, and after.
        public var before: Album, after: Album

        /// Creates a replaced album.
        public init(index: Int, before: Album, after: Album) {
            self.index = index
            self.before = before
            self.after = after
        }
    }

    /// Every index the change names.
    var indices: [Int] {
        switch self {
        case .added(let index, _), .edited(let index, _, _): [index]
        case .deleted(let index, _, let pinned): [index] + (pinned ?? []).map(\.index)
        case .imported(let placed, let updated): placed.map(\.index) + (updated ?? []).map(\.index)
        case .batch(let changes): changes.flatMap(\.indices)
        }
    }

    /// The change in words, for the command's closing line.
    public var summary: String {
        switch self {
        case .added(let index, let album): "added \(Self.name(album)) as album \(index + 1)"
        case .deleted(let index, let album, let pinned):
            "deleted album \(index + 1), \(Self.name(album))"
                // Named by page, not number: in `delete 5 1` the number would be one the album
                // had only between the two deletes.
                + Self.pinnedSummary(pinned ?? [])
        case .edited(let index, let before, let after) where before == after:
            "album \(index + 1), \(Self.name(after)), already has these values; nothing was changed"
        case .edited(let index, _, let after): "edited album \(index + 1), \(Self.name(after))"
        case .imported(let albums, nil): "imported \(albums.count) album\(albums.count == 1 ? "" : "s")"
        case .imported(let albums, let updated?) where albums.isEmpty: "updated \(updated.count) album\(updated.count == 1 ? "" : "s") from an import"
        case .imported(let albums, let updated?):
            "imported \(albums.count) album\(albums.count == 1 ? "" : "s") and updated \(updated.count)"
        case .batch(let changes):
            changes.map(\.summary).joined(separator: "; ")
        }
    }

    /// What a delete says of the namesakes after the deleted album that keep their pages as
    /// their own slugs: each by page, or, past three, how many and the first and last page (a
    /// delete among 10,000 twins printed a line of 700 KB).
    static func pinnedSummary(_ pinned: [Placed]) -> String {
        let pages = pinned.map { SitePlan.albumFolder(slug: $0.album.slug ?? "") }
        guard pages.count > 3, let first = pages.first, let last = pages.last else {
            return pages.map { "; its namesake at \($0) keeps that page as its own slug" }.joined()
        }
        return "; its \(pages.count) namesakes after it keep their pages (\(first) … \(last)) as their own slugs"
    }

    /// `"Title" by Artist`, for a line of a terminal: line breaks as spaces, control and
    /// bidirectional characters escaped, as `gallery list` shows them, so a title that holds a
    /// U+202E neither reorders the rest of the line nor splits it.
    public static func name(_ album: Album) -> String {
        "\"\(album.title.tableCell())\" by \(album.artist.tableCell())"
    }
}

/// Why a library command could not do what was asked; nothing was changed.
///
/// Findings about a file (the archive, a file being imported) stay ``Diagnostic``s, so each is
/// printed with its own position and severity; ``reasons`` are the command's own errors.
public struct LibraryError: Error, Sendable, CustomStringConvertible {
    /// Findings about a file, each printed as `path:line:column: severity: message`.
    public var diagnostics: [Diagnostic]
    /// What went wrong and what to do, one line each; errors, printed after the findings.
    public var reasons: [String]
    /// How many rows of an imported file were refused for a fault found only against the
    /// archive (a slug already taken): rows `--skip-invalid` would leave out.
    public var rowsAtFault = 0

    /// Creates an error from one or more reasons.
    public init(_ reasons: String...) {
        self.init(diagnostics: [], reasons: reasons)
    }

    /// Creates an error from reasons.
    public init(reasons: [String]) {
        self.init(diagnostics: [], reasons: reasons)
    }

    /// Creates an error from a file's findings (of any severity) and reasons of its own.
    public init(diagnostics: [Diagnostic], reasons: [String] = []) {
        self.diagnostics = diagnostics
        self.reasons = reasons
    }

    public var description: String { (diagnostics.map(\.description) + reasons).joined(separator: "\n") }
}
