import Foundation

/// Reads the iOS app's `albums.bin`: an NSKeyedArchiver property list whose root object is an
/// array of `Album` objects encoded with the keys title, artist, genre, cover_url and year (the
/// seed's `saveAlbums()`), with Foundation's own `NSKeyedUnarchiver`.
enum KeyedArchiveReader {
    /// The class names an album may have been archived under: the Objective-C app's `Album`, and
    /// a Swift app's module-qualified `BlueLibrary.Album`.
    static let albumClassNames = ["Album", "BlueLibrary.Album"]

    /// The albums in an `albums.bin`, each with the rules it breaks.
    static func read(_ data: Data, display: String) throws(LibraryError) -> [AlbumImporter.Candidate] {
        let unarchiver: NSKeyedUnarchiver
        do {
            unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        } catch {
            throw LibraryError("\(display): not a keyed archive (\(error.localizedDescription)); export albums.bin from the app, or import JSON or CSV")
        }
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        for name in albumClassNames { unarchiver.setClass(ArchivedAlbum.self, forClassName: name) }
        let root = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
        unarchiver.finishDecoding()
        if let error = unarchiver.error {
            throw LibraryError("\(display): this keyed archive does not hold albums (\(error.localizedDescription))")
        }
        guard let items = root as? [Any] else {
            throw LibraryError("\(display): this keyed archive's root object is not an array of albums")
        }
        var candidates: [AlbumImporter.Candidate] = []
        for (offset, item) in items.enumerated() {
            let origin = "album \(offset + 1)"
            let location = "\(display): \(origin)"
            guard let archived = item as? ArchivedAlbum else {
                let blank = Album(title: "", artist: "", genre: "", year: AlbumRules.years.lowerBound, coverURL: "")
                candidates.append(AlbumImporter.Candidate(album: blank, name: origin, location: location, problems: ["\(display): \(origin) is not an Album object (it is \(type(of: item)))"]))
                continue
            }
            let year = archived.year.flatMap { AlbumImporter.year(from: $0.trimmingCharacters(in: .whitespaces)) }
            // A stand-in for a bad year, so that the other fields are still checked.
            let album = Album(title: archived.title ?? "", artist: archived.artist ?? "", genre: archived.genre ?? "", year: year ?? AlbumRules.years.lowerBound, coverURL: archived.coverURL ?? "")
            let named = "\(location) (\"\(album.title)\")"
            var problems = AlbumRules.problems(in: album).map { "\(named): \($0)" }
            if year == nil { problems.append("\(named): the year \"\(archived.year ?? "")\" is not a year") }
            candidates.append(AlbumImporter.Candidate(album: album, name: origin, location: location, problems: problems))
        }
        return candidates
    }
}

/// An `Album` object as the iOS app archived it. The year is text in the app (an NSString).
final class ArchivedAlbum: NSObject, NSCoding, @unchecked Sendable {
    let title: String?
    let artist: String?
    let genre: String?
    let coverURL: String?
    let year: String?

    init?(coder: NSCoder) {
        title = coder.decodeObject(forKey: "title") as? String
        artist = coder.decodeObject(forKey: "artist") as? String
        genre = coder.decodeObject(forKey: "genre") as? String
        coverURL = coder.decodeObject(forKey: "cover_url") as? String
        if let text = coder.decodeObject(forKey: "year") as? String {
            year = text
        } else if let number = coder.decodeObject(forKey: "year") as? NSNumber {
            year = number.stringValue
        } else {
            year = nil
        }
    }

    func encode(with coder: NSCoder) {
        coder.encode(title, forKey: "title")
        coder.encode(artist, forKey: "artist")
        coder.encode(genre, forKey: "genre")
        coder.encode(coverURL, forKey: "cover_url")
        coder.encode(year, forKey: "year")
    }
}
