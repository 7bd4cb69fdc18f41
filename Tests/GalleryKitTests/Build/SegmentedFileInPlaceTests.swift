import Foundation
import Testing
@testable import GalleryKit

/// After an edit the strip and the data file are spliced in the old file's own bytes: the
/// result must be exactly the copying splice's (and so a full render's), whether the remade
/// segments grow, shrink or keep their length, and wherever they are.
@Suite struct SegmentedFileInPlaceTests {
    /// The albums with those at `indices` retitled, longer or shorter by turns.
    static func edited(_ indices: [Int], count: Int) -> [Album] {
        var albums = SegmentedFileTests.albums(count: count)
        for (turn, index) in indices.enumerated() {
            albums[index].title = turn % 3 == 0 ? "A much longer title, with & and <tags> 🎸 \(turn)" : turn % 3 == 1 ? "T" : "Title \(index + 1)x"
        }
        return albums
    }

    @Test(arguments: [[0], [39], [17], [0, 39], [3, 4, 5], [1, 10, 20, 30, 38]])
    func inPlaceGivesTheCopyingSplicesBytes(changed indices: [Int]) throws {
        let before = try SegmentedFileTests.files(SegmentedFileTests.albums(count: 40))
        let after = try SegmentedFileTests.files(Self.edited(indices, count: 40))
        for ((name, old, oldKeys), (_, new, newKeys)) in zip(before, after) {
            let made = old.render()
            let map = SegmentedFileTests.map(of: made, file: old, keys: oldKeys)
            let copied = try #require(new.splice(old: made.bytes, map: map, keys: newKeys), "\(name)")
            // As the render step reads it: with room to grow.
            var bytes = made.bytes
            bytes.reserveCapacity(bytes.count + 1 << 16)
            let inPlace = try #require(new.splice(reusing: &bytes, map: map, keys: newKeys), "\(name)")
            #expect(inPlace.bytes == copied.bytes, "\(name) \(indices)")
            #expect(inPlace.bytes == new.render().bytes, "\(name) \(indices)")
            #expect(inPlace.lengths == copied.lengths, "\(name)")
            #expect(inPlace.remade == copied.remade, "\(name)")
            #expect(inPlace.remadeCount == indices.count, "\(name)")
        }
    }

    /// More remade segments than are put in place one by one: the file is copied, the same bytes.
    @Test func manyChangesAreCopiedAsBefore() throws {
        let indices = Array(stride(from: 0, to: 40, by: 2))
        #expect(indices.count > SegmentedFile.segmentsSplicedInPlace)
        let before = try SegmentedFileTests.files(SegmentedFileTests.albums(count: 40))
        let after = try SegmentedFileTests.files(Self.edited(indices, count: 40))
        for ((name, old, oldKeys), (_, new, newKeys)) in zip(before, after) {
            let made = old.render()
            var bytes = made.bytes
            let inPlace = try #require(new.splice(reusing: &bytes, map: SegmentedFileTests.map(of: made, file: old, keys: oldKeys), keys: newKeys), "\(name)")
            #expect(inPlace.bytes == new.render().bytes, "\(name)")
            #expect(inPlace.remadeCount == indices.count, "\(name)")
        }
    }

    /// A map that does not describe the file is refused, and the file is left as it was.
    @Test func aMapThatDoesNotFitLeavesTheFileAlone() throws {
        let before = try SegmentedFileTests.files(SegmentedFileTests.albums(count: 12))
        let after = try SegmentedFileTests.files(Self.edited([4], count: 12))
        for ((name, old, oldKeys), (_, new, newKeys)) in zip(before, after) {
            let made = old.render()
            var map = SegmentedFileTests.map(of: made, file: old, keys: oldKeys)
            map.lengths[2] += 1
            var bytes = made.bytes
            #expect(new.splice(reusing: &bytes, map: map, keys: newKeys) == nil, "\(name)")
            #expect(bytes == made.bytes, "\(name)")
        }
    }

    /// The render step reads the old file with room to spare, so a longer segment moves the
    /// rest within the same storage rather than copying it all elsewhere.
    @Test func theOldFileIsReadWithRoomToSpare() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "spare-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: "carousel.svg")
        try Data(repeating: 0x41, count: 100_000).write(to: file)
        let bytes = try #require(FileBytes.contents(of: file.path, spare: 1 << 16))
        #expect(bytes.count == 100_000 && bytes.allSatisfy { $0 == 0x41 })
        #expect(bytes.capacity >= 100_000 + 1 << 16)
        #expect(FileBytes.contents(of: file.path) == bytes)
    }
}
