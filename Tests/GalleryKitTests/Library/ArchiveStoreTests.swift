import Foundation
import Testing

@testable import GalleryKit

@Suite struct ArchiveStoreTests {
    /// A writer killed after keeping the backup but before writing the archive leaves the backup
    /// as a second link to the archive's file; the next save must still leave no staged file.
    @Test func aSaveAfterAWriterKilledBetweenBackupAndArchiveLeavesNoDebris() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "archive-store-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = ArchiveStore(url: folder.appending(path: "albums.json"))
        let first = AlbumArchive(albums: [Album(title: "A", artist: "X", genre: "Pop", year: 1999, coverURL: "a.png")])
        try store.save(first)
        #expect(link(store.url.path, store.backup.path) == 0)

        let second = AlbumArchive(albums: first.albums + [Album(title: "B", artist: "Y", genre: "Pop", year: 2000, coverURL: "b.png")])
        try store.save(second, holdingLock: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["albums.json", "albums.json.bak"])
        #expect(try store.load().archive.albums == second.albums)
        #expect(try Data(contentsOf: store.backup) == Data(first.encoded()))
    }
}
