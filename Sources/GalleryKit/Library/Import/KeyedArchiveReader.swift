import Foundation

/// Reads the iOS app's `albums.bin`: an NSKeyedArchiver property list whose root object is an
/// array of `Album` objects encoded with the keys title, artist, genre, cover_url and year (the
/// seed's `saveAlbums()`).
///
/// The archive is walked here, through ``PropertyList``, not by Foundation's `NSKeyedUnarchiver`:
/// on Linux that crashes on a hostile file (a reference to itself overflows the stack; a class
/// reference to a string, or an `NSError` or `NSMutableString` without its keys, traps), and an
/// import is where files from elsewhere arrive. Only what the app writes is read: an array
/// (`NS.objects`) of objects of the app's class, whose fields are strings (or a number, for the
/// year); nothing else is instantiated.
enum KeyedArchiveReader {
    /// The class names an album may have been archived under: the Objective-C app's `Album`, and
    /// a Swift app's module-qualified `BlueLibrary.Album`.
    static let albumClassNames = ["Album", "BlueLibrary.Album"]

    /// The albums in an `albums.bin`, each with the rules it breaks.
    static func read(_ data: Data, display: String) throws(LibraryError) -> [AlbumImporter.Candidate] {
        let archive: Archive
        do {
            archive = try Archive(PropertyList(data))
        } catch {
            throw LibraryError("\(display): not a keyed archive (\(error.reason)); export albums.bin from the app, or import JSON or CSV")
        }
        let members: [UInt64]?
        do {
            members = try archive.root().flatMap { reference throws(PropertyList.Malformed) in try archive.arrayMembers(of: reference) }
        } catch {
            throw LibraryError("\(display): this keyed archive does not hold albums (\(error.reason))")
        }
        guard let items = members else { throw LibraryError("\(display): this keyed archive's root object is not an array of albums") }
        var candidates: [AlbumImporter.Candidate] = []
        for (offset, item) in items.enumerated() {
            let origin = "album \(offset + 1)"
            let location = "\(display): \(origin)"
            let fields: [String: String]
            do {
                guard let found = try archive.albumFields(item) else {
                    let blank = Album(title: "", artist: "", genre: "", year: AlbumRules.years.lowerBound, coverURL: "")
                    let kind = (try? archive.kind(of: item)) ?? "damaged"
                    candidates.append(AlbumImporter.Candidate(album: blank, name: origin, location: location, problems: ["\(location) is not an Album object (it is \(kind))"]))
                    continue
                }
                fields = found
            } catch {
                throw LibraryError("\(location) is damaged (\(error.reason)); export albums.bin from the app again")
            }
            let yearText = fields["year"]
            let year = yearText.flatMap { AlbumImporter.year(from: $0.trimmingCharacters(in: .whitespaces)) }
            // A stand-in for a bad year, so that the other fields are still checked.
            let album = Album(title: fields["title"] ?? "", artist: fields["artist"] ?? "", genre: fields["genre"] ?? "", year: year ?? AlbumRules.years.lowerBound, coverURL: fields["cover_url"] ?? "")
            let named = "\(location) (\"\(album.title)\")"
            var problems = AlbumRules.problems(in: album).map { "\(named): \($0)" }
            if year == nil { problems.append("\(named): the year \"\(yearText ?? "")\" is not a year") }
            candidates.append(AlbumImporter.Candidate(album: album, name: origin, location: location, problems: problems))
        }
        return candidates
    }

    /// A keyed archive: `$objects`, whose members refer to each other by their place in it
    /// (`CF$UID`), and `$top`, whose `root` is the archived object.
    struct Archive {
        let list: PropertyList
        /// `$objects`, as indexes into the property list.
        let objects: [Int]
        let top: PropertyList.Object

        init(_ list: PropertyList) throws(PropertyList.Malformed) {
            self.list = list
            let top = try list.object(at: list.top)
            guard let archiver = try list.value(in: top, forKey: "$archiver"), case .string("NSKeyedArchiver") = try list.object(at: archiver) else {
                throw PropertyList.Malformed(reason: "it has no $archiver NSKeyedArchiver")
            }
            guard let objects = try list.value(in: top, forKey: "$objects"), case .array(let members) = try list.object(at: objects),
                  let roots = try list.value(in: top, forKey: "$top")
            else { throw PropertyList.Malformed(reason: "it lacks $objects or $top") }
            self.objects = members
            self.top = try list.object(at: roots)
        }

        /// The object a reference names; `nil` for the archive's `$null` (reference 0).
        func object(_ reference: UInt64) throws(PropertyList.Malformed) -> PropertyList.Object? {
            guard reference != 0 else { return nil }
            guard reference < UInt64(objects.count) else {
                throw PropertyList.Malformed(reason: "a reference to object \(reference), past its \(objects.count) objects")
            }
            return try list.object(at: objects[Int(reference)])
        }

        /// The object a dictionary's key refers to, or the value it holds itself: the archiver
        /// stores numbers and booleans in the object (`encode(2003, forKey: "year")`), and
        /// everything else by reference.
        func member(_ key: String, of object: PropertyList.Object) throws(PropertyList.Malformed) -> PropertyList.Object? {
            guard let index = try list.value(in: object, forKey: key) else { return nil }
            let value = try list.object(at: index)
            guard case .uid(let reference) = value else { return value }
            return try self.object(reference)
        }

        /// The root object's reference.
        func root() throws(PropertyList.Malformed) -> UInt64? {
            guard let index = try list.value(in: top, forKey: "root"), case .uid(let reference) = try list.object(at: index) else { return nil }
            return reference
        }

        /// An archived object's class name.
        func className(of object: PropertyList.Object) throws(PropertyList.Malformed) -> String? {
            guard let type = try member("$class", of: object), let name = try list.value(in: type, forKey: "$classname"),
                  case .string(let text) = try list.object(at: name)
            else { return nil }
            return text
        }

        /// The members of an archived `NSArray`, as references.
        func arrayMembers(of reference: UInt64) throws(PropertyList.Malformed) -> [UInt64]? {
            guard let array = try object(reference), ["NSArray", "NSMutableArray"].contains(try className(of: array)),
                  let index = try list.value(in: array, forKey: "NS.objects"), case .array(let members) = try list.object(at: index)
            else { return nil }
            var references: [UInt64] = []
            for member in members {
                guard case .uid(let reference) = try list.object(at: member) else { throw PropertyList.Malformed(reason: "the array holds something that is not a reference") }
                references.append(reference)
            }
            return references
        }

        /// An album's fields as text, or `nil` if the object is not of the app's class.
        func albumFields(_ reference: UInt64) throws(PropertyList.Malformed) -> [String: String]? {
            guard let album = try object(reference), let name = try className(of: album), KeyedArchiveReader.albumClassNames.contains(name) else { return nil }
            var fields: [String: String] = [:]
            for key in ["title", "artist", "genre", "cover_url", "year"] {
                fields[key] = try text(try member(key, of: album))
            }
            return fields
        }

        /// A field's text: a string (plain, or an archived `NSString`) or a number; nothing else.
        func text(_ object: PropertyList.Object?) throws(PropertyList.Malformed) -> String? {
            switch object {
            case .string(let text): return text
            case .integer(let number): return String(number)
            case .real(let number): return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            case .dictionary?:
                guard let object, ["NSString", "NSMutableString"].contains(try className(of: object)),
                      let index = try list.value(in: object, forKey: "NS.string"), case .string(let text) = try list.object(at: index)
                else { return nil }
                return text
            default: return nil
            }
        }

        /// What an object that is not an album is, for a message.
        func kind(of reference: UInt64) throws(PropertyList.Malformed) -> String {
            switch try object(reference) {
            case nil: return "nil"
            case .string?: return "a string"
            case .integer?, .real?: return "a number"
            case .dictionary(let pairs)? where !pairs.isEmpty:
                return try className(of: .dictionary(pairs)).map { "of class \($0)" } ?? "an object of no class"
            default: return "neither an object nor a string"
            }
        }
    }
}
