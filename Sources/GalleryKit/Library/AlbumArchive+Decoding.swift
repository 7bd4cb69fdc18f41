import Foundation

extension AlbumArchive {
    /// The smallest and largest year accepted.
    public static var years: ClosedRange<Int> { AlbumRules.years }

    /// Decodes and checks an archive, reporting every problem at once.
    ///
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - path: The path used in diagnostics.
    /// - Returns: The archive and any warnings (unknown keys).
    /// - Throws: ``ArchiveError`` with every error and warning found.
    public static func decode(_ bytes: [UInt8], path: String) throws(ArchiveError) -> (archive: AlbumArchive, warnings: [Diagnostic]) {
        // An archive of the usual shape is read straight into albums; anything else (or
        // anything wrong) by the full decoder, which gives the same albums or says what is wrong.
        if let albums = ArchiveFastPath.read(bytes) {
            return (AlbumArchive(albums: albums.map(\.album), positions: albums.map(\.position)), [])
        }
        return try decodeInFull(bytes, path: path)
    }

    /// Decodes and checks an archive through a tree of its JSON: every key, every fault.
    static func decodeInFull(_ bytes: [UInt8], path: String) throws(ArchiveError) -> (archive: AlbumArchive, warnings: [Diagnostic]) {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw ArchiveError([.error("the archive is empty; it should hold {\"version\": 1, \"albums\": [...]}", path: path)])
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw ArchiveError([.error("malformed JSON: \(error.message)", path: path, at: error.position)])
        }
        var decoder = ArchiveDecoder(path: path)
        let albums = decoder.decodeRoot(root)
        // In the file's order: the warnings for keys gallery does not use come in one per key,
        // after the albums.
        decoder.diagnostics = decoder.diagnostics.enumerated().sorted { first, second in
            let (a, b) = (first.element.position, second.element.position)
            guard let a, let b, a != b else { return first.offset < second.offset }
            return a < b
        }.map(\.element)
        if decoder.diagnostics.containsErrors { throw ArchiveError(decoder.diagnostics) }
        return (AlbumArchive(albums: albums.map(\.album), positions: albums.map(\.position), extras: decoder.extras), decoder.diagnostics)
    }
}

/// Walks the parsed JSON and collects albums and findings.
private struct ArchiveDecoder {
    let path: String
    var diagnostics: [Diagnostic] = []
    /// The top-level keys gallery does not use, each with its first value, in order.
    var extras: [Album.Extra] = []
    /// Each album key gallery does not use, with where it first stands and the albums that have
    /// it, in the order first met: one warning each, however many albums have it.
    var unknownKeys: [(key: String, position: SourcePosition, name: AlbumName, numbers: [Int])] = []
    var unknownKeyIndex: [String: Int] = [:]
    /// Each required key some album lacks, with the albums that lack it, in the order first
    /// met: a key renamed in every album (`"titel"`) is one error, not one per album.
    fileprivate var missingKeys: [(key: String, example: String, albums: [(name: AlbumName, position: SourcePosition)])] = []

    mutating func error(_ message: String, at position: SourcePosition) {
        diagnostics.append(.error(message, path: path, at: position))
    }

    mutating func decodeRoot(_ root: JSONNode) -> [(album: Album, position: SourcePosition)] {
        guard case .object = root.value else {
            error("the archive must be an object {\"version\": 1, \"albums\": [...]}, not \(root.typeDescription)", at: root.position)
            return []
        }
        noteUnknownKeys(of: root)
        guard let version = root.member("version") else {
            error("the archive has no \"version\"; add \"version\": \(AlbumArchive.currentVersion)", at: root.position)
            return []
        }
        guard case .number(let text) = version.value.value, let number = Int(text) else {
            // A number, but not a whole one that fits (1.0, 1e400): "not a number" said of it.
            let given = if case .number(let text) = version.value.value { text.clippedForMessage } else { version.value.typeDescription }
            error("\"version\" must be the number \(AlbumArchive.currentVersion), not \(given)", at: version.value.position)
            return []
        }
        guard number == AlbumArchive.currentVersion else {
            error("unknown archive version \(number); this gallery reads version \(AlbumArchive.currentVersion) (a newer gallery may have written it: upgrade gallery)", at: version.value.position)
            return []
        }
        guard let list = root.member("albums") else {
            error("the archive has no \"albums\" list; add \"albums\": []", at: root.position)
            return []
        }
        guard case .array(let elements) = list.value.value else {
            error("\"albums\" must be an array of albums, not \(list.value.typeDescription)", at: list.value.position)
            return []
        }
        var albums: [(album: Album, position: SourcePosition)] = []
        albums.reserveCapacity(elements.count)
        var slugOwners: [String: (number: Int, position: SourcePosition)] = [:]
        slugOwners.reserveCapacity(elements.count)
        for (offset, element) in elements.enumerated() {
            let decoded = decodeAlbum(element, number: offset + 1)
            // An album with other faults is checked too, so one build lists every problem.
            if let (slug, slugPosition) = decoded.slug {
                if let owner = slugOwners[slug] {
                    error("\(decoded.name) has the slug \"\(slug)\" of album \(owner.number) (line \(owner.position.line)); slugs must be unique: change one", at: slugPosition)
                } else {
                    slugOwners[slug] = (offset + 1, slugPosition)
                }
            }
            if let album = decoded.album { albums.append((album, element.position)) }
        }
        reportMissingKeys()
        warnOfUnknownKeys()
        return albums
    }

    /// Notes that an album lacks a required key (reported by ``reportMissingKeys()``).
    fileprivate mutating func missing(_ key: String, example: String, in name: AlbumName, at position: SourcePosition) {
        if let index = missingKeys.firstIndex(where: { $0.key == key }) {
            missingKeys[index].albums.append((name, position))
        } else {
            missingKeys.append((key, example, [(name, position)]))
        }
    }

    /// An error per album that lacks a key, or, past three albums, one for all of them at the
    /// first, saying which key they have instead when one is close to it: a terminal, and the
    /// preview's overlay, of 1,500 lines hid the one that said what to do.
    mutating func reportMissingKeys() {
        for entry in missingKeys {
            let add = "add \"\(entry.key)\": \(entry.example)"
            guard entry.albums.count > 3, let first = entry.albums.first else {
                for album in entry.albums { error("\(album.name) has no \"\(entry.key)\"; \(add)", at: album.position) }
                continue
            }
            let instead = unknownKeys.first { Spelling.nearest($0.key, among: [entry.key]) != nil || $0.key.lowercased() == entry.key }
            let hint = instead.map { "; they have \"\($0.key)\" instead: rename it \"\(entry.key)\"" } ?? "; \(add) to each"
            let numbers = entry.albums.map { $0.name.number - 1 }
            error("\(entry.albums.count) albums (\(AlbumNumbers.ranges(numbers))) have no \"\(entry.key)\"\(hint)", at: first.position)
        }
    }

    /// One warning per album key gallery does not use: a shop's `"price"` on 2,000 albums is one
    /// line, not 2,000, and says where such fields go.
    mutating func warnOfUnknownKeys() {
        for entry in unknownKeys {
            // Hugo's keys that keep a page unpublished: gallery publishes every album, and says so.
            let hint = AlbumRules.isUnpublishingName(entry.key)
                ? ": gallery has no drafts or publish dates, so \(entry.numbers.count == 1 ? "this album is" : "these albums are") published; keep unreleased albums out of the archive until they are out"
                : entry.key.lowercased() == "cover" || entry.key == "coverUrl"
                ? "; did you mean \"cover_url\"?"
                // The details table calls the title "Album", as the seed app did.
                : entry.key.lowercased() == "album" || entry.key.lowercased() == "name"
                ? "; did you mean \"title\"?"
                : Spelling.nearest(entry.key, among: AlbumFields.keys).map { "; did you mean \"\($0)\"?" }
                    ?? "; to show it on the pages, put it under \"params\" (\"params\": {\"\(entry.key.clippedForMessage)\": …}) and write {{album.params.\(entry.key.clippedForMessage)}} in a template"
            let who = entry.numbers.count == 1
                ? "\(entry.name) has"
                : "\(entry.numbers.count) albums (\(AlbumNumbers.ranges(entry.numbers.map { $0 - 1 }))) have"
            diagnostics.append(.warning("\(who) an unknown key \"\(entry.key.clippedForMessage)\", which is ignored\(hint)", path: path, at: entry.position))
        }
    }

    /// Warns of each top-level key that is neither `"version"` nor `"albums"` (a slip such as
    /// `"album"` gets a hint) and keeps the first value of each in ``extras``.
    /// A key given twice is an error, as in an album: which one counts would be a guess.
    /// How many unknown top-level keys get a warning each.
    static let unknownKeysNamed = 20

    mutating func noteUnknownKeys(of root: JSONNode) {
        guard case .object(let members) = root.value else { return }
        var seen: Set<String> = []
        for member in members where !seen.insert(member.key).inserted {
            error("the archive has \"\(member.key.clippedForMessage)\" twice at the top level; keep one", at: member.position)
        }
        // Kept by key in a set: a hostile archive of 200,000 keys took two minutes to load when
        // each was looked for in the list so far. Past the first few, one warning counts the rest.
        var kept = Set(extras.map(\.key))
        var unknown = 0
        for member in members where member.key != "version" && member.key != "albums" {
            unknown += 1
            if unknown <= Self.unknownKeysNamed {
                let hint = Spelling.nearest(member.key.lowercased(), among: ["version", "albums"]).map { "; did you mean \"\($0)\"?" } ?? ""
                diagnostics.append(.warning("the archive has an unknown top-level key \"\(member.key.clippedForMessage)\", which is ignored\(hint)", path: path, at: member.position))
            }
            if kept.insert(member.key).inserted {
                extras.append(Album.Extra(key: member.key, json: member.value.compactJSON))
            }
        }
        if unknown > Self.unknownKeysNamed {
            diagnostics.append(.warning("the archive has \(unknown - Self.unknownKeysNamed) more unknown top-level keys, which are ignored too", path: path))
        }
    }

    /// Decodes one album, or reports why it cannot be (`album` nil); with its valid slug and
    /// where its value stands, for the duplicate-slug check, even when the album has other
    /// faults. One pass over the members finds each key's first value, as `JSONNode.member` would.
    fileprivate mutating func decodeAlbum(_ node: JSONNode, number: Int) -> (album: Album?, name: AlbumName, slug: (String, SourcePosition)?) {
        guard case .object(let members) = node.value else {
            error("album \(number) must be an object with title, artist, genre, year and cover_url, not \(node.typeDescription)", at: node.position)
            return (nil, AlbumName(number: number, title: nil), nil)
        }
        var fields = AlbumFields()
        for index in members.indices { fields.note(members[index].key, at: index) }
        func member(_ index: Int?) -> JSONNode.Member? { index.map { members[$0] } }
        var titleText: String?
        if case .string(let text)? = member(fields.title)?.value.value, !text.isEmpty { titleText = text }
        let name = AlbumName(number: number, title: titleText)
        let errorsBefore = diagnostics.count
        var extras: [Album.Extra] = []
        // An album has about six keys: comparing with the earlier ones beats hashing them.
        var seen: Set<String>? = members.count > 16 ? [] : nil
        for (offset, member) in members.enumerated() {
            let repeated: Bool
            if seen != nil {
                repeated = seen?.insert(member.key).inserted == false
            } else {
                repeated = members[..<offset].contains { $0.key == member.key }
            }
            if repeated {
                error("\(name) has \"\(member.key.clippedForMessage)\" twice; keep one", at: member.position)
            }
            if AlbumFields.isKnown(member.key) { continue }
            if member.key == "params" {
                // The owner's own fields for the templates: kept as written, checked here.
                if !repeated, checkParams(member, in: name) { extras.append(Album.Extra(key: member.key, json: member.value.compactJSON)) }
            } else if !repeated {
                if let known = unknownKeyIndex[member.key] {
                    unknownKeys[known].numbers.append(number)
                } else {
                    unknownKeyIndex[member.key] = unknownKeys.count
                    unknownKeys.append((member.key, member.position, name, [number]))
                }
                extras.append(Album.Extra(key: member.key, json: member.value.compactJSON))
            }
        }
        let title = text("title", member(fields.title), of: node, in: name)
        let artist = text("artist", member(fields.artist), of: node, in: name)
        let genre = text("genre", member(fields.genre), of: node, in: name)
        let cover = text("cover_url", member(fields.cover), of: node, in: name)
        let year = self.year(member(fields.year), of: node, in: name)
        var slug: String?
        let slugMember = member(fields.slug)
        if let slugMember {
            switch slugMember.value.value {
            case .string(let value):
                if let problem = AlbumRules.slugProblem(value) {
                    let quoted = "\"\(value.clippedForMessage)\""
                    error("\(name) has the slug \(problem.replacingFirst("\(quoted) is", with: "\(quoted), which is"))", at: slugMember.value.position)
                } else {
                    slug = value
                    if AlbumRules.isNumberLike(value) {
                        diagnostics.append(.warning("\(name) has the slug \"\(value)\", only digits, which `gallery edit` and `delete` read as an album's number; write \"album-\(value)\" to tell it apart", path: path, at: slugMember.value.position))
                    }
                }
            case .null:
                break
            default:
                error("\(name): \"slug\" must be a string, not \(slugMember.value.typeDescription)", at: slugMember.value.position)
            }
        }
        let slugAt = slugMember.flatMap { member in slug.map { ($0, member.value.position) } }
        guard diagnostics[errorsBefore...].containsErrors == false,
              let title, let artist, let genre, let cover, let year
        else { return (nil, name, slugAt) }
        return (Album(title: title, artist: artist, genre: genre, year: year, coverURL: cover, slug: slug, extras: extras), name, slugAt)
    }

    /// Whether an album's `"params"` is what templates can show: an object whose values are
    /// strings, numbers or true/false, each key once; an error says what is not.
    mutating func checkParams(_ member: JSONNode.Member, in name: AlbumName) -> Bool {
        guard case .object(let members) = member.value.value else {
            error("\(name): \"params\" must be an object of the album's own fields, such as {\"price\": \"12 €\"}, not \(member.value.typeDescription)", at: member.value.position)
            return false
        }
        var good = true
        var seen: Set<String> = []
        for param in members {
            // A name a template can say, as --param requires.
            if let problem = Album.paramNameProblem(param.key) {
                error("\(name): in \"params\", \(problem)", at: param.position)
                good = false
            }
            if !seen.insert(param.key).inserted {
                error("\(name) has \"\(param.key.clippedForMessage)\" twice in \"params\"; keep one", at: param.position)
                good = false
            }
            switch param.value.value {
            case .string(let text):
                if let problem = AlbumRules.lengthProblem(text, field: "param") {
                    error("\(name): params \"\(param.key.clippedForMessage)\" \(problem)", at: param.value.position)
                    good = false
                }
            case .number, .bool: break
            default:
                error("\(name): params \"\(param.key.clippedForMessage)\" must be a string, a number or true/false, not \(param.value.typeDescription)", at: param.value.position)
                good = false
            }
        }
        return good
    }

    mutating func text(_ key: String, _ member: JSONNode.Member?, of node: JSONNode, in name: AlbumName) -> String? {
        guard let member else {
            missing(key, example: "\"…\"", in: name, at: node.position)
            return nil
        }
        guard case .string(let value) = member.value.value else {
            error("\(name): \"\(key)\" must be a string, not \(member.value.typeDescription)", at: member.value.position)
            return nil
        }
        guard !AlbumRules.isBlank(value) else {
            error("\(name) has an empty \"\(key)\"; fill it in", at: member.value.position)
            return nil
        }
        if let problem = AlbumRules.lengthProblem(value, field: key) {
            error("\(name): \"\(key)\" \(problem)", at: member.value.position)
            return nil
        }
        return value
    }

    mutating func year(_ member: JSONNode.Member?, of node: JSONNode, in name: AlbumName) -> Int? {
        guard let member else {
            missing("year", example: "1999", in: name, at: node.position)
            return nil
        }
        switch member.value.value {
        case .number(let text):
            guard let year = Int(text), AlbumRules.yearProblem(year) == nil else {
                error("\(name) has the year \(text.clippedForMessage), which is not a year; write a whole number from \(AlbumArchive.years.lowerBound) to \(AlbumArchive.years.upperBound)", at: member.value.position)
                return nil
            }
            return year
        case .string(let text):
            let hint = Int(text).map { AlbumArchive.years.contains($0) ? "; write \($0) without quotes" : "" } ?? ""
            error("\(name): \"year\" must be a number, not a string\(hint)", at: member.value.position)
            return nil
        default:
            error("\(name): \"year\" must be a number, not \(member.value.typeDescription)", at: member.value.position)
            return nil
        }
    }
}

/// Where each key an album may have first stands among its members. Keys are matched by a
/// `switch`, not looked up in a `Set`: no hashing of the six keys of each of 10,000 albums.
private struct AlbumFields {
    var title: Int?, artist: Int?, genre: Int?, year: Int?, cover: Int?, slug: Int?

    /// Notes the member at `index`, unless an earlier one had its key; `false` for a key an
    /// album does not have.
    @discardableResult
    mutating func note(_ key: String, at index: Int) -> Bool {
        switch key {
        case "title": if title == nil { title = index }
        case "artist": if artist == nil { artist = index }
        case "genre": if genre == nil { genre = index }
        case "year": if year == nil { year = index }
        case "cover_url": if cover == nil { cover = index }
        case "slug": if slug == nil { slug = index }
        default: return false
        }
        return true
    }

    /// Every key an album object may have, for "did you mean".
    static let keys: Set<String> = ["title", "artist", "genre", "year", "cover_url", "slug", "params"]

    /// Whether `key` is one an album object may have.
    static func isKnown(_ key: String) -> Bool {
        var probe = AlbumFields()
        return probe.note(key, at: 0)
    }
}

/// How messages name an album: "album 3 (\"Title\")", or "album 3" without a title. Written
/// only when a message needs it, not for each of 10 000 valid albums.
private struct AlbumName: CustomStringConvertible {
    let number: Int
    let title: String?

    var description: String {
        // A title too long to be one (see AlbumRules.maxTextLength) is shown by its start.
        title.map { "album \(number) (\"\($0.clippedForMessage)\")" } ?? "album \(number)"
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
