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
    /// Keys of the album's object in the archive that gallery does not use (`"label"`,
    /// `"notes"`), in their order: kept, so a library command that rewrites the archive loses
    /// none of the owner's data.
    public var extras: [Extra]

    /// A key gallery does not use and its value, as compact JSON text.
    public struct Extra: Sendable, Hashable, Codable {
        /// The key.
        public var key: String
        /// The value, as JSON (`"Island"`, `3`, `{"a":[1,2]}`).
        public var json: String

        /// Creates a kept key.
        public init(key: String, json: String) {
            self.key = key
            self.json = json
        }
    }

    /// Creates an album from its fields.
    public init(title: String, artist: String, genre: String, year: Int, coverURL: String, slug: String? = nil, extras: [Extra] = []) {
        self.title = title
        self.artist = artist
        self.genre = genre
        self.year = year
        self.coverURL = coverURL
        self.slug = slug
        self.extras = extras
    }

    enum CodingKeys: String, CodingKey {
        case title, artist, genre, year
        case coverURL = "cover_url"
        case slug
        case extras
    }

    /// Decodes an album (from the undo history); one written before albums kept their extra
    /// keys has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        artist = try container.decode(String.self, forKey: .artist)
        genre = try container.decode(String.self, forKey: .genre)
        year = try container.decode(Int.self, forKey: .year)
        coverURL = try container.decode(String.self, forKey: .coverURL)
        slug = try container.decodeIfPresent(String.self, forKey: .slug)
        extras = try container.decodeIfPresent([Extra].self, forKey: .extras) ?? []
    }

    /// Encodes an album, leaving out `extras` when it has none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(artist, forKey: .artist)
        try container.encode(genre, forKey: .genre)
        try container.encode(year, forKey: .year)
        try container.encode(coverURL, forKey: .coverURL)
        try container.encodeIfPresent(slug, forKey: .slug)
        if !extras.isEmpty { try container.encode(extras, forKey: .extras) }
    }
}
