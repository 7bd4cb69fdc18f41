
/// The albums of a site in their order, each with its unique slug: what every later build step reads.
public struct Catalogue: Sendable, Hashable {
    /// One album and the slug its page lives under.
    public struct Entry: Sendable, Hashable {
        /// The album as the archive holds it.
        public var album: Album
        /// The unique slug: the album's own, or one derived from its artist and title.
        public var slug: String
        /// The position of the album in the archive, from 0.
        public var index: Int
        /// Where the album's object starts in the archive file, when it was read from one.
        public var position: SourcePosition?
    }

    /// An album whose derived slug another album's own slug took, so its page is at `-2`: an
    /// album added by hand with a slug copied from another (at the end, or at the top of a
    /// newest-first archive).
    public struct Displacement: Sendable, Hashable {
        /// The album that lost its derived slug, from 0.
        public var index: Int
        /// The album whose own slug it is.
        public var by: Int
    }

    /// The albums in archive order.
    public let entries: [Entry]
    /// Albums whose derived slug another album's own slug took, in archive order.
    public let displaced: [Displacement]

    /// Resolves slugs for albums whose explicit slugs are already known to be valid and unique.
    ///
    /// Derived slugs never take an explicit one; a derived slug that repeats another gets `-2`,
    /// `-3`… in archive order, so adding an album at the end never renames an existing page.
    public init(albums: [Album], positions: [SourcePosition] = []) {
        // Only deriving a slug needs the set of those taken: an archive that gives every album
        // its slug (as generated ones often do) never hashes them all.
        var takenSlugs: Set<String>?
        // Which album gave each slug of its own, made at the first clash (rare).
        var owners: [String: Int]?
        var displaced: [Displacement] = []
        // For each derived slug taken, the suffix its next twin is to try first.
        var nextSuffix: [String: Int] = [:]
        var entries: [Entry] = []
        entries.reserveCapacity(albums.count)
        for (index, album) in albums.enumerated() {
            if let slug = album.slug {
                entries.append(Entry(album: album, slug: slug, index: index, position: positions.indices.contains(index) ? positions[index] : nil))
                continue
            }
            if takenSlugs == nil { takenSlugs = Set(albums.compactMap(\.slug)) }
            let base = Self.derivedSlug(for: album)
            var slug = base
            // Optional chaining mutates the set in place; a local copy would copy it each time.
            if takenSlugs?.contains(base) == true {
                if owners == nil { owners = Dictionary(albums.enumerated().compactMap { index, album in album.slug.map { ($0, index) } }) { first, _ in first } }
                if let owner = owners?[base] { displaced.append(Displacement(index: index, by: owner)) }
                // Taken slugs are never freed, so the next twin starts where the last one's search
                // ended: 10,000 albums of one title and artist tried 50 million slugs (43 s for
                // `gallery list` of 20,000).
                var suffix = nextSuffix[base] ?? 2
                repeat {
                    slug = "\(base)-\(suffix)"
                    suffix += 1
                } while takenSlugs?.contains(slug) == true
                nextSuffix[base] = suffix
            }
            takenSlugs?.insert(slug)
            entries.append(Entry(album: album, slug: slug, index: index, position: positions.indices.contains(index) ? positions[index] : nil))
        }
        self.entries = entries
        self.displaced = displaced
    }

    /// The slug an album gets when the archive gives none: from the artist and the title, or, when
    /// they hold no Latin letters (only other scripts, and perhaps digits), from a hash of them
    /// (stable across builds). A slug of digits alone (`1984` from "אלבום 1984") would put
    /// unrelated albums in one `1984`, `1984-2` series and read as an album number on the
    /// command line.
    public static func derivedSlug(for album: Album) -> String {
        let slug = Slug.make(from: album.artist + " " + album.title)
        if slug.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) { return slug }
        return "album-" + String(ContentHash.of(album.artist + "\u{0}" + album.title).prefix(10))
    }

    /// The number of albums.
    public var count: Int { entries.count }
    /// Whether there are no albums.
    public var isEmpty: Bool { entries.isEmpty }
    /// The albums without their slugs, in order: a new array on each use, so loops should index
    /// `entries` instead.
    public var albums: [Album] { entries.map(\.album) }
}
