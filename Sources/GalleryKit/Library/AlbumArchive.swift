/// The archive's contents: `{"version": 1, "albums": [...]}`.
public struct AlbumArchive: Sendable, Hashable {
    /// The only archive format version this gallery reads and writes.
    public static let currentVersion = 1

    /// The albums in order.
    public var albums: [Album]
    /// Where each album's object starts in the file it was read from (empty for archives made in
    /// code), so later steps can point at an album's line.
    public var positions: [SourcePosition]
    /// Top-level keys gallery does not use (`"comment"`, `"label"`), in their order: kept, as an
    /// album's ``Album/extras`` are, so a library command that rewrites the archive loses none of
    /// the owner's data.
    public var extras: [Album.Extra]

    /// Creates an archive of albums.
    public init(albums: [Album], positions: [SourcePosition] = [], extras: [Album.Extra] = []) {
        self.albums = albums
        self.positions = positions
        self.extras = extras
    }

    /// The same archive (its top-level keys included) holding other albums.
    func with(albums: [Album]) -> AlbumArchive {
        AlbumArchive(albums: albums, extras: extras)
    }
}

/// The reasons an archive cannot be used, each a diagnostic naming the file, the line and column,
/// and the album.
public struct ArchiveError: Error, Sendable, CustomStringConvertible {
    /// Every problem found; at least one is an error.
    public var diagnostics: [Diagnostic]

    /// Creates an error from its findings.
    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
