import Foundation

/// The iOS sample app's `Album` model, compiled in a module named BlueLibrary so that
/// `NSKeyedArchiver` writes it exactly as the app's `saveAlbums()` does: class name
/// `BlueLibrary.Album`, keys title, artist, genre, cover_url and year (a string, as in the app).
public final class Album: NSObject, NSCoding {
    public let title: String
    public let artist: String
    public let genre: String
    public let coverUrl: String
    public let year: String

    public init(title: String, artist: String, genre: String, coverUrl: String, year: String) {
        self.title = title
        self.artist = artist
        self.genre = genre
        self.coverUrl = coverUrl
        self.year = year
    }

    public init?(coder: NSCoder) {
        title = coder.decodeObject(forKey: "title") as? String ?? ""
        artist = coder.decodeObject(forKey: "artist") as? String ?? ""
        genre = coder.decodeObject(forKey: "genre") as? String ?? ""
        coverUrl = coder.decodeObject(forKey: "cover_url") as? String ?? ""
        year = coder.decodeObject(forKey: "year") as? String ?? ""
    }

    public func encode(with coder: NSCoder) {
        coder.encode(title, forKey: "title")
        coder.encode(artist, forKey: "artist")
        coder.encode(genre, forKey: "genre")
        coder.encode(coverUrl, forKey: "cover_url")
        coder.encode(year, forKey: "year")
    }

    /// The app's `saveAlbums()`: the albums archived into `albums.bin`'s bytes.
    public static func archive(_ albums: [Album]) throws -> Data {
        try NSKeyedArchiver.archivedData(withRootObject: albums as NSArray, requiringSecureCoding: false)
    }
}
