/// One album of the collection, as the archive `content/albums.json` stores it.
///
/// The seed app's `Album` (title, artist, genre, coverUrl, year). `slug` is optional in the archive;
/// when it is absent, ``Catalogue`` derives one from the artist and the title.
public struct Album: Sendable, Hashable, Codable {
    /// The album's title, shown in the details table's "Album" row.
    public var title: String
    /// The performing artist.
    public var artist: String
    /// The genre, free text.
    public var genre: String
    /// The year of release, 1000…9999.
    public var year: Int
    /// Where the cover comes from: a path relative to `content/`, a `file://` URL inside the site
    /// folder, or an `http(s)://` URL.
    public var coverURL: String
    /// The slug the owner chose, if any; ``Catalogue`` fills in the rest.
    public var slug: String?

    /// Creates an album from its fields.
    public init(title: String, artist: String, genre: String, year: Int, coverURL: String, slug: String? = nil) {
        self.title = title
        self.artist = artist
        self.genre = genre
        self.year = year
        self.coverURL = coverURL
        self.slug = slug
    }

    enum CodingKeys: String, CodingKey {
        case title, artist, genre, year
        case coverURL = "cover_url"
        case slug
    }
}
