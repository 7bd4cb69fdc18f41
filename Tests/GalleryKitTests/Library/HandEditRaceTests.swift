import Foundation
import Testing

@testable import GalleryKit

/// An editor saves `albums.json` without the archive's lock: a library change made meanwhile
/// must not write over the hand edit, but make itself again on top of it.
@Suite struct HandEditRaceTests {
    /// A site folder with a two-album archive, removed afterwards.
    final class Site {
        let root: URL
        let editor: LibraryEditor
        let warnings = Warnings()

        init() throws {
            root = FileManager.default.temporaryDirectory.appending(path: "hand-edit-\(UUID().uuidString)", directoryHint: .isDirectory)
            var editor = LibraryEditor(site: SiteFolder(root: root))
            let warnings = warnings
            editor.warn = { warnings.append($0) }
            self.editor = editor
            try editor.store.save(AlbumArchive(albums: [
                Album(title: "A", artist: "X", genre: "Pop", year: 1999, coverURL: "a.png"),
                Album(title: "B", artist: "Y", genre: "Pop", year: 2000, coverURL: "b.png"),
            ]))
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        /// What an editor's save does: the archive with album 1's genre changed, written in place.
        func handEdit(genre: String) throws {
            var archive = try editor.store.load().archive
            archive.albums[0].genre = genre
            try Data(archive.encoded()).write(to: editor.store.url)
        }

        var albums: [Album] { (try? editor.store.load().archive.albums) ?? [] }
    }

    final class Warnings: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test func aHandEditSavedDuringAChangeIsKeptAndTheChangeMadeOnTopOfIt() throws {
        let site = try Site()
        var attempts = 0
        let change = try site.editor.change { archive, _ throws(LibraryError) in
            attempts += 1
            // The editor saves while the change is being made, once.
            if attempts == 1 { try? site.handEdit(genre: "Jazz") }
            return archive.adding(Album(title: "C", artist: "Z", genre: "Rock", year: 2001, coverURL: "c.png"), at: nil)
        }
        #expect(attempts == 2, "made again from the archive as the editor left it")
        #expect(site.albums.map(\.title) == ["A", "B", "C"])
        #expect(site.albums.first?.genre == "Jazz", "the hand edit is kept")
        // The history holds the change once, and undoing it keeps the hand edit too.
        #expect(try site.editor.undo() == change)
        #expect(site.albums.map(\.title) == ["A", "B"])
        #expect(site.albums.first?.genre == "Jazz")
        #expect(!FileManager.default.fileExists(atPath: site.root.appending(path: "content/.albums.json.history.broken").path))
        let names = try FileManager.default.contentsOfDirectory(atPath: site.root.appending(path: "content").path)
        #expect(!names.contains { $0.contains(".tmp-") }, "no temporary file is left: \(names)")
    }

    @Test func anArchiveThatKeepsChangingFailsTheChangeAndWritesNothing() throws {
        let site = try Site()
        var attempts = 0
        #expect {
            _ = try site.editor.change { archive, _ throws(LibraryError) in
                attempts += 1
                try? site.handEdit(genre: "Edit \(attempts)")
                return archive.deleting(at: 1)
            }
        } throws: { error in
            (error as? LibraryError)?.reasons == ["\(site.editor.store.displayPath) changed on disk 5 times while gallery was changing it (another program is saving it); nothing was changed: run the command again once it is saved"]
        }
        #expect(attempts == LibraryEditor.attempts)
        #expect(site.albums.map(\.title) == ["A", "B"], "nothing was deleted")
        #expect(site.albums.first?.genre == "Edit 5", "the last hand edit is there")
        #expect(throws: LibraryError.self) { try site.editor.undo() }
    }

    /// A history that cannot be read is set aside with a warning, not thrown away in silence.
    @Test func anUnreadableHistoryIsKeptAsideWithAWarning() throws {
        let site = try Site()
        let history = site.editor.historyFile
        try Data("garbage{".utf8).write(to: history)
        #expect(throws: LibraryError.self) { try site.editor.undo() }
        let shown = SiteFolder.display(history)
        #expect(site.warnings.all == ["the undo history \(shown) is unreadable and was started afresh; it was kept as \(shown).broken"])
        #expect(try String(contentsOf: history.deletingLastPathComponent().appending(path: ".albums.json.history.broken"), encoding: .utf8) == "garbage{")
        _ = try site.editor.delete("2")
        #expect(try site.editor.undo().summary.hasPrefix("deleted"))
    }

    /// A history that names an album number no archive has (an index of Int.max trapped on
    /// `index + 1`) is set aside as an unreadable one is, and undo says there is nothing to undo.
    @Test(arguments: [Int.max, -1, Int.min])
    func aHistoryWithAnImpossibleIndexIsKeptAside(_ index: Int) throws {
        let site = try Site()
        _ = try site.editor.delete("2")
        let history = site.editor.historyFile
        let text = try String(contentsOf: history, encoding: .utf8)
        #expect(text.contains("\"index\":1"))
        try Data(text.replacingOccurrences(of: "\"index\":1", with: "\"index\":\(index)").utf8).write(to: history)
        #expect(throws: LibraryError.self) { try site.editor.undo() }
        let shown = SiteFolder.display(history)
        #expect(site.warnings.all == ["the undo history \(shown) holds an album number no archive has and was started afresh; it was kept as \(shown).broken"])
        #expect(site.albums.count == 1, "the archive is as the delete left it")
    }
}
