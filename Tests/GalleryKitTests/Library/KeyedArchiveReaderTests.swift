import Foundation
import Testing

import BlueLibrary

@testable import GalleryKit

/// A binary property list written by hand, so that a test can make what no archiver would.
private enum Plist {
    indirect case string(String), integer(Int), uid(Int), array([Plist]), dictionary([(String, Plist)])

    /// The file: objects flattened depth-first, references of 2 bytes, offsets of 4.
    func encoded() -> [UInt8] {
        var objects: [[UInt8]] = []
        func marker(_ kind: UInt8, _ count: Int) -> [UInt8] {
            count < 15 ? [kind << 4 | UInt8(count)] : [kind << 4 | 0x0F, 0x11, UInt8(count >> 8), UInt8(count & 0xFF)]
        }
        func add(_ value: Plist) -> Int {
            let index = objects.count
            objects.append([])
            var bytes: [UInt8]
            switch value {
            case .string(let text): bytes = marker(0x5, text.utf8.count) + Array(text.utf8)
            case .integer(let number): bytes = [0x13] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: number >> ($0 * 8)) }
            case .uid(let number): bytes = [0x81, UInt8(number >> 8), UInt8(number & 0xFF)]
            case .array(let items):
                let references = items.map(add)
                bytes = marker(0xA, items.count) + references.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            case .dictionary(let pairs):
                let keys = pairs.map { add(.string($0.0)) }
                let values = pairs.map { add($0.1) }
                bytes = marker(0xD, pairs.count) + (keys + values).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            }
            objects[index] = bytes
            return index
        }
        _ = add(self)
        var file = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(file.count)
            file += object
        }
        let table = file.count
        for offset in offsets { file += (0..<4).reversed().map { UInt8(truncatingIfNeeded: offset >> ($0 * 8)) } }
        file += [0, 0, 0, 0, 0, 0, 4, 2]
        for number in [objects.count, 0, table] { file += (0..<8).reversed().map { UInt8(truncatingIfNeeded: number >> ($0 * 8)) } }
        return file
    }

    /// A keyed archive of `objects` (index 0 is `$null`), whose root is object 1.
    static func archive(_ objects: [Plist], root: Int = 1) -> Data {
        Data(Plist.dictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .integer(100000)),
            ("$top", .dictionary([("root", .uid(root))])), ("$objects", .array(objects)),
        ]).encoded())
    }

    static func named(_ name: String) -> Plist { .dictionary([("$classname", .string(name)), ("$classes", .array([.string(name), .string("NSObject")]))]) }

    /// `$null`, an array (1) of an album (2) whose fields are 3–7, the classes Album (8) and NSArray (9).
    static func objects() -> [Plist] {
        [
            .string("$null"),
            .dictionary([("NS.objects", .array([.uid(2)])), ("$class", .uid(9))]),
            .dictionary([("title", .uid(3)), ("artist", .uid(4)), ("genre", .uid(5)), ("cover_url", .uid(6)), ("year", .uid(7)), ("$class", .uid(8))]),
            .string("Heathen"), .string("David Bowie"), .string("Rock"), .string("https://example.org/h.png"), .string("2002"),
            named("Album"), named("NSArray"),
        ]
    }
}

@Suite struct KeyedArchiveReaderTests {
    private func read(_ data: Data) throws(LibraryError) -> [AlbumImporter.Candidate] {
        try KeyedArchiveReader.read(data, display: "albums.bin")
    }

    /// The app's `saveAlbums()`, in the binary format it uses and in XML.
    private func archive(_ albums: [BlueLibrary.Album], format: PropertyListSerialization.PropertyListFormat = .binary) -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = format
        archiver.encode(albums as NSArray, forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        return archiver.encodedData
    }

    private let appAlbums = [
        BlueLibrary.Album(title: "Heathen", artist: "David Bowie", genre: "Rock", coverUrl: "https://example.org/h.png", year: "2002"),
        BlueLibrary.Album(title: "Rock Steady", artist: "No Doubt", genre: "Pop", coverUrl: "rs.png", year: "2001"),
    ]

    @Test func readsWhatNSKeyedArchiverWritesInBothFormats() throws {
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            let candidates = try read(archive(appAlbums, format: format))
            #expect(candidates.map(\.album.title) == ["Heathen", "Rock Steady"], "\(format)")
            #expect(candidates.map(\.album.year) == [2002, 2001], "\(format)")
            #expect(candidates[0].album.coverURL == "https://example.org/h.png")
            #expect(candidates.allSatisfy { $0.problems.isEmpty }, "\(candidates.map(\.problems))")
        }
    }

    @Test func readsAYearArchivedAsANumberAndAnArchivedNSString() throws {
        var objects = Plist.objects()
        objects[7] = .integer(1999)
        objects[3] = .dictionary([("NS.string", .string("Heathen (Deluxe)")), ("$class", .uid(10))])
        objects.append(Plist.named("NSMutableString"))
        let candidates = try read(Plist.archive(objects))
        #expect(candidates.map(\.album.title) == ["Heathen (Deluxe)"])
        #expect(candidates.map(\.album.year) == [1999])
        #expect(candidates.allSatisfy { $0.problems.isEmpty }, "\(candidates.map(\.problems))")
    }

    /// `encode(2003, forKey: "year")` stores the number in the album's object itself, not by
    /// reference: it was read as no year at all ("the year \"\" is not a year").
    @Test func readsAYearTheArchiverStoredInline() throws {
        var objects = Plist.objects()
        objects[2] = .dictionary([("title", .uid(3)), ("artist", .uid(4)), ("genre", .uid(5)), ("cover_url", .uid(6)), ("year", .integer(2003)), ("$class", .uid(8))])
        let candidates = try read(Plist.archive(objects))
        #expect(candidates.map(\.album.year) == [2003])
        #expect(candidates.allSatisfy { $0.problems.isEmpty }, "\(candidates.map(\.problems))")
    }

    /// An archive in XML is known by its first bytes, as a binary one is, whatever its name:
    /// piped in (`-`) or named `albums.xml`, it was read as CSV.
    @Test func anXMLArchiveIsKnownByItsContent() {
        let xml = [UInt8](archive(appAlbums, format: .xml))
        #expect(AlbumImporter.format(of: xml, name: "-") == .keyedArchive)
        #expect(AlbumImporter.format(of: xml, name: "albums.xml") == .keyedArchive)
        #expect(AlbumImporter.format(of: Array("\u{FEFF}<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>".utf8), name: "-") == .keyedArchive)
        // XML that is not a property list is not taken for one.
        #expect(AlbumImporter.format(of: Array("<?xml version=\"1.0\"?><albums/>".utf8), name: "-") == .csv)
        #expect(AlbumImporter.format(of: Array("title,artist\n<plist>,x\n".utf8), name: "-") == .csv)
    }

    @Test func readsTheHandMadeArchiveAsTheArchiverDoes() throws {
        let candidates = try read(Plist.archive(Plist.objects()))
        #expect(candidates.map(\.album) == [Album(title: "Heathen", artist: "David Bowie", genre: "Rock", year: 2002, coverURL: "https://example.org/h.png")])
    }

    /// Each of these crashed Foundation's NSKeyedUnarchiver on Linux (a trap or a stack overflow).
    @Test func refusesHostileArchivesWithAMessage() {
        let cases: [(name: String, damage: (inout [Plist]) -> Void, message: String)] = [
            ("an array that holds itself", { $0[1] = .dictionary([("NS.objects", .array([.uid(1)])), ("$class", .uid(9))]) }, "album 1 is not an Album object (it is of class NSArray)"),
            ("an album whose title is the album", { $0[2] = .dictionary([("title", .uid(2)), ("$class", .uid(8))]) }, "album 1 (\"\"): title is empty"),
            ("an album whose title is the array", { $0[2] = .dictionary([("title", .uid(1)), ("$class", .uid(8))]) }, "album 1 (\"\"): title is empty"),
            ("a class that is a string", { $0[1] = .dictionary([("NS.objects", .array([.uid(2)])), ("$class", .uid(3))]) }, "root object is not an array of albums"),
            ("a class that is $null", { $0[1] = .dictionary([("NS.objects", .array([.uid(2)])), ("$class", .uid(0))]) }, "root object is not an array of albums"),
            ("an NSError without its keys", { $0[9] = Plist.named("NSError") }, "root object is not an array of albums"),
            ("an NSMutableString without its keys", { $0[9] = Plist.named("NSMutableString") }, "root object is not an array of albums"),
            ("a member past the objects", { $0[1] = .dictionary([("NS.objects", .array([.uid(4000)])), ("$class", .uid(9))]) }, "album 1 is damaged (a reference to object 4000, past its 10 objects)"),
            ("a field past the objects", { $0[2] = .dictionary([("title", .uid(77)), ("$class", .uid(8))]) }, "album 1 is damaged (a reference to object 77, past its 10 objects)"),
        ]
        for item in cases {
            var objects = Plist.objects()
            item.damage(&objects)
            do {
                let problems = try read(Plist.archive(objects)).flatMap(\.problems)
                #expect(problems.contains { $0.contains(item.message) }, "\(item.name): \(problems)")
            } catch {
                #expect(error.description.contains(item.message), "\(item.name): \(error.description)")
            }
        }
    }

    /// The message a user sees for a file that is no property list: the file, what it is not, why.
    private static func saysNotAKeyedArchive(_ error: any Error) -> Bool {
        (error as? LibraryError)?.description.hasPrefix("albums.bin: not a keyed archive (") == true
    }

    @Test func refusesAFileWhoseTrailerPointsOutsideIt() {
        let valid = Array(Plist.archive(Plist.objects()))
        let trailer = valid.count - 32
        let cases: [(String, (inout [UInt8]) -> Void)] = [
            ("a huge object count", { $0.replaceSubrange(trailer + 8..<trailer + 16, with: [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) }),
            ("the top object past the count", { $0[trailer + 23] = 0xFF }),
            ("the offset table past the end", { $0.replaceSubrange(trailer + 24..<trailer + 32, with: [0xFF, 0, 0, 0, 0, 0, 0, 0]) }),
            ("references of no bytes", { $0[trailer + 7] = 0 }),
            ("offsets of 9 bytes", { $0[trailer + 6] = 9 }),
        ]
        for (name, damage) in cases {
            var bytes = valid
            damage(&bytes)
            #expect("\(name)") { try self.read(Data(bytes)) } throws: { Self.saysNotAKeyedArchive($0) }
        }
        #expect { try self.read(Data("bplist00".utf8)) } throws: { Self.saysNotAKeyedArchive($0) }
    }

    /// Every cut of a real archive, and thousands of damaged copies of it, give albums or a
    /// message: none crashes the process (which would fail this whole test run).
    @Test func survivesCutAndDamagedArchives() {
        let valid = Array(archive(appAlbums))
        var outcomes = (read: 0, refused: 0)
        func attempt(_ bytes: [UInt8]) {
            do {
                _ = try read(Data(bytes))
                outcomes.read += 1
            } catch {
                #expect(error.description.hasPrefix("albums.bin"), "\(error.description)")
                outcomes.refused += 1
            }
        }
        for length in 0..<valid.count { attempt(Array(valid.prefix(length))) }
        // A fixed seed: a failure here is reproducible.
        var random = SeededGenerator(seed: 0x6761_6C6C_6572_79)
        for _ in 0..<5000 {
            var bytes = valid
            for _ in 0...Int.random(in: 0..<4, using: &random) {
                bytes[Int.random(in: 8..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            attempt(bytes)
        }
        // Both outcomes happen: the damage reached the objects, not only what is never read.
        #expect(outcomes.read > 0 && outcomes.refused > valid.count)
    }
}
