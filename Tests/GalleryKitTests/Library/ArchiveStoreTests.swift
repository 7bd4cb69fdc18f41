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

    /// An archive that is a folder or a named pipe is named for what it is, at once: reading a
    /// pipe with no writer used to wait for good (and `serve` then ignored Ctrl-C).
    @Test func anArchiveThatIsAFolderOrAPipeIsToldAtOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "archive-store-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appending(path: "folder/albums.json"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appending(path: "pipe"), withIntermediateDirectories: true)
        #expect(mkfifo(folder.appending(path: "pipe/albums.json").path, 0o600) == 0)
        try FileManager.default.createDirectory(at: folder.appending(path: "device"), withIntermediateDirectories: true)
        #expect(symlink("/dev/null", folder.appending(path: "device/albums.json").path) == 0)
        for (name, what) in [("folder", "a folder"), ("pipe", "a named pipe"), ("device", "a device")] {
            let store = ArchiveStore(url: folder.appending(path: "\(name)/albums.json"), displayPath: "content/albums.json")
            let start = ContinuousClock.now
            #expect(throws: ArchiveError.self) { try store.read() }
            do {
                _ = try store.read()
            } catch {
                #expect(error.diagnostics.map(\.description) == ["content/albums.json: error: the archive is \(what), not a file; content/albums.json must be a JSON file (`gallery init` writes one)"])
            }
            #expect(ContinuousClock.now - start < .seconds(10))
        }
        // The manifest and the segment maps are read the same way: a pipe in their place is no record.
        #expect(FileBytes.contents(of: folder.appending(path: "pipe/albums.json").path) == nil)
    }

    /// A new archive gets a new file's default permissions; a save over an archive keeps its
    /// own exactly, even bits the umask would take away (group write under 022).
    @Test func aSaveKeepsTheArchivesPermissionsAndANewArchiveGetsTheDefault() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "archive-store-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = ArchiveStore(url: folder.appending(path: "albums.json"))
        let archive = AlbumArchive(albums: [Album(title: "A", artist: "X", genre: "Pop", year: 1999, coverURL: "a.png")])
        try store.save(archive)
        #expect(store.permissions == 0o644 & ~Self.umask())
        for mode: mode_t in [0o660, 0o600, 0o640] {
            #expect(chmod(store.url.path, mode) == 0)
            try store.save(archive)
            #expect(store.permissions == mode)
        }
        // A read-only archive is left as it is: its owner made it so to keep it.
        #expect(chmod(store.url.path, 0o444) == 0)
        let before = try Data(contentsOf: store.url)
        let refused = #expect(throws: AtomicFile.WriteError.self) {
            try store.save(AlbumArchive(albums: []))
        }
        #expect(refused?.refusedBeforeWriting == true)
        #expect(refused?.reason.hasPrefix("the archive is read-only (mode 444)") == true)
        #expect(try Data(contentsOf: store.url) == before)
        #expect(store.permissions == 0o444)
    }

    /// The process's umask, read without changing it (umask(2) would, for every thread).
    static func umask() -> mode_t {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
        return line.flatMap { mode_t($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) } ?? 0o022
    }
}
