import Foundation

/// Changes the archive for the library commands (`add`, `edit`, `delete`, `undo`, `import`).
///
/// Each change runs under the archive's lock: read, change, check the result with the same
/// rules as the loader, save atomically with a backup, record the change in the undo history.
/// Anything invalid changes nothing.
public struct LibraryEditor: Sendable {
    /// The site folder.
    public let site: SiteFolder
    /// How many changes `gallery undo` can reverse.
    public var undoLimit: Int
    /// The archive.
    public let store: ArchiveStore

    /// An editor for a site folder's archive.
    public init(site: SiteFolder, undoLimit: Int = 50) {
        self.site = site
        self.undoLimit = undoLimit
        self.store = ArchiveStore(site: site)
    }

    /// The undo history file, beside the file the archive is (``ArchiveStore/target``).
    public var historyFile: URL { UndoHistory.file(for: store.target) }

    /// Inserts an album at a 1-based position (`nil` appends); a position beyond one past the
    /// last album is refused with the range, not taken to mean the end. No album already there
    /// moves to another page address (see ``keepingPageAddresses(inserting:at:into:)``).
    public func add(_ album: Album, at number: Int? = nil) throws(LibraryError) -> LibraryChange {
        try Self.check(album)
        return try change { archive, catalogue throws(LibraryError) in
            if let number { try Self.checkPosition(number, count: archive.albums.count) }
            try Self.checkSlugIsFree(album, in: catalogue)
            let placed = number.map { Self.keepingPageAddresses(inserting: album, at: $0 - 1, into: archive.albums) } ?? album
            return archive.adding(placed, at: number.map { $0 - 1 })
        }
    }

    /// Changes fields of the album a reference (`3` or a slug) names; giving them the values
    /// they have changes nothing and records nothing (the change's ``LibraryChange/summary``
    /// says so). No other album moves to another page address (see
    /// ``keepingPageAddresses(editing:at:in:)``).
    public func edit(_ reference: String, _ apply: @Sendable (inout Album) -> Void) throws(LibraryError) -> LibraryChange {
        try change { archive, catalogue throws(LibraryError) in
            let index = try Self.resolve(reference, in: catalogue)
            var album = archive.albums[index]
            apply(&album)
            try Self.check(album, changedFrom: archive.albums[index])
            if album.slug != archive.albums[index].slug { try Self.checkSlugIsFree(album, in: catalogue, except: index) }
            if album.slug == nil, archive.albums[index].slug != nil { try Self.checkUnpinningMovesNobody(album, at: index, in: archive.albums) }
            return archive.replacing(at: index, with: Self.keepingPageAddresses(editing: album, at: index, in: archive.albums))
        }
    }

    /// Removes the album a reference (`3` or a slug) names.
    public func delete(_ reference: String) throws(LibraryError) -> LibraryChange {
        try change { archive, catalogue throws(LibraryError) in
            archive.deleting(at: try Self.resolve(reference, in: catalogue))
        }
    }

    /// Reverses the most recent change still in the history and forgets it.
    ///
    /// A change that can no longer be reversed (the archive was edited by hand since) stays in
    /// the history, and the error says how ``skipUndo()`` gets past it.
    ///
    /// - Returns: The change that was undone.
    public func undo() throws(LibraryError) -> LibraryChange {
        try locked { () throws(LibraryError) in
            var history = UndoHistory.load(from: historyFile).history
            guard let last = history.changes.popLast() else {
                throw LibraryError(nothingToUndo)
            }
            history.undone.append(last)
            try replay(
                { archive throws(LibraryError) in try archive.undoing(last) }, history: history,
                failing: "cannot undo the most recent change (\(last.summary))",
                advice: "`gallery undo --skip` forgets that change and leaves the archive as it is, so the next undo reaches the change before it"
            )
            return last
        }
    }

    /// Makes again the change most recently undone (undo, then redo, leaves the archive as it
    /// was before the undo). A new change since the undo, or `undo --skip`, leaves nothing to
    /// redo.
    ///
    /// - Returns: The change made again.
    public func redo() throws(LibraryError) -> LibraryChange {
        try locked { () throws(LibraryError) in
            var history = UndoHistory.load(from: historyFile).history
            guard let change = history.redo(limit: undoLimit) else {
                throw LibraryError("there is nothing to redo: `gallery redo` makes again what `gallery undo` took back, until the next change")
            }
            try replay(
                { archive throws(LibraryError) in try archive.redoing(change) }, history: history,
                failing: "cannot redo \(change.summary)",
                advice: "nothing was changed; make the change again by hand if you still want it (the next change forgets what was undone)"
            )
            return change
        }
    }

    /// Undoes or redoes a change (`apply`) on the archive, checks and saves the result with
    /// `history`; a change the archive no longer allows (it was edited by hand since) is an
    /// error, each reason after `failing`, then `advice`, and nothing is saved.
    private func replay(_ apply: (AlbumArchive) throws(LibraryError) -> AlbumArchive, history: UndoHistory, failing: String, advice: String) throws(LibraryError) {
        let current = try load()
        let archive: AlbumArchive
        do throws(LibraryError) {
            archive = try apply(current)
            try check(archive)
        } catch {
            throw LibraryError(reasons: error.reasons.filter { $0 != "nothing was changed" }.map { "\(failing): \($0)" } + [advice])
        }
        try save(archive, history: history)
    }

    /// Why an undo finds no change, with the reason when it is the settings'.
    var nothingToUndo: String {
        undoLimit == 0 ? "there is nothing to undo: [library] undo_limit = 0 in gallery.toml keeps no changes to undo" : "there is nothing to undo"
    }

    /// Forgets the most recent change in the history without reversing it, leaving the archive
    /// as it is: the way past a change that can no longer be undone.
    ///
    /// - Returns: The change that was forgotten.
    public func skipUndo() throws(LibraryError) -> LibraryChange {
        try locked { () throws(LibraryError) in
            var history = UndoHistory.load(from: historyFile).history
            guard let last = history.changes.popLast() else {
                throw LibraryError(nothingToUndo)
            }
            // What was undone before it was undone on top of it: it cannot be made again.
            history.undone.removeAll()
            do {
                try history.save(to: historyFile, permissions: store.permissions)
            } catch {
                throw LibraryError("cannot write the undo history \(site.display(historyFile)): \(error)")
            }
            return last
        }
    }

    /// The archive as it is now.
    public func load() throws(LibraryError) -> AlbumArchive {
        do {
            return try store.load().archive
        } catch {
            throw LibraryError(diagnostics: error.diagnostics, reasons: ["fix the archive first; nothing was changed"])
        }
    }

    // MARK: - Mechanics

    /// Applies a change under the lock and saves it, or with `dryRun` only checks it. A change
    /// that leaves the albums as they were (an edit to the same values, an import that adds
    /// nothing) writes nothing and is not recorded.
    func change(dryRun: Bool = false, _ transform: (AlbumArchive, Catalogue) throws(LibraryError) -> (AlbumArchive, LibraryChange)) throws(LibraryError) -> LibraryChange {
        try locked { () throws(LibraryError) in
            let archive = try load()
            let (changed, change) = try transform(archive, Catalogue(albums: archive.albums))
            if changed.albums == archive.albums { return change }
            if dryRun {
                try check(changed)
                return change
            }
            var history = UndoHistory.load(from: historyFile).history
            history.record(change, limit: undoLimit)
            try save(changed, history: history)
            return change
        }
    }

    /// Checks a whole new archive exactly as the loader would.
    private func check(_ archive: AlbumArchive) throws(LibraryError) {
        let clashes = AlbumRules.slugClashes(in: archive.albums)
        guard clashes.isEmpty else { throw LibraryError(reasons: clashes.map(\.description) + ["nothing was changed"]) }
        do {
            _ = try AlbumArchive.decode(archive.encoded(), path: store.displayPath)
        } catch {
            throw LibraryError(reasons: error.diagnostics.filter { $0.severity == .error }.map(\.message) + ["nothing was changed"])
        }
    }

    /// Checks the new archive, then writes it and the history.
    private func save(_ archive: AlbumArchive, history: UndoHistory) throws(LibraryError) {
        try check(archive)
        do {
            try store.save(archive, holdingLock: true)
        } catch {
            throw LibraryError("cannot write \(store.displayPath): \(error.reason)")
        }
        do {
            try history.save(to: historyFile, permissions: store.permissions)
        } catch {
            throw LibraryError("the archive was saved, but the undo history could not be: \(error)")
        }
    }

    /// Runs `body` holding the archive's lock; in a folder with no archive, creates nothing
    /// (not even the lock file) and says so.
    private func locked<T>(_ body: () throws(LibraryError) -> T) throws(LibraryError) -> T {
        guard store.exists else { throw LibraryError(diagnostics: [store.missing]) }
        do {
            return try store.lock.withLock { try body() }
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError("cannot lock \(store.displayPath): \(error)")
        }
    }

    /// The index an album reference names: a number as `gallery list` shows it, or a slug.
    static func resolve(_ reference: String, in catalogue: Catalogue) throws(LibraryError) -> Int {
        if let number = Int(reference) {
            guard (1...max(catalogue.count, 1)).contains(number), number <= catalogue.count else {
                throw LibraryError(catalogue.isEmpty
                    ? "there are no albums"
                    : "there is no album \(number); `gallery list` numbers them 1 to \(catalogue.count)")
            }
            return number - 1
        }
        if let entry = catalogue.entries.first(where: { $0.slug == reference }) { return entry.index }
        throw LibraryError("no album has the slug \"\(reference)\"; `gallery list` shows every slug")
    }

    /// Refuses an `--at` position outside 1 to one past the last of `count` albums.
    static func checkPosition(_ number: Int, count: Int) throws(LibraryError) {
        guard number < 1 || number > count + 1 else { return }
        let range = switch count {
        case 0: "there are no albums yet, so --at takes only 1"
        case 1: "there is 1 album, so --at takes 1 or 2 (2 adds at the end)"
        default: "there are \(count) albums, so --at takes 1 to \(count + 1) (\(count + 1) adds at the end)"
        }
        throw LibraryError("--at \(number) is \(number < 1 ? "before the first album" : "past the end"): \(range)", "nothing was changed")
    }

    /// Refuses an explicit slug that is another album's page address, which it would take over
    /// (that album's page would move to `slug-2`); `index` is the album being edited, whose own
    /// address is no obstacle.
    static func checkSlugIsFree(_ album: Album, in catalogue: Catalogue, except index: Int? = nil) throws(LibraryError) {
        guard let slug = album.slug, let holder = catalogue.entries.first(where: { $0.slug == slug && $0.index != index }) else { return }
        throw LibraryError("--slug " + AlbumRules.slugTakenReason(slug, heldBy: holder), "nothing was changed")
    }

    /// Refuses an album that breaks a rule, naming each field as its command-line flag; with
    /// `before` (an edit), only in the fields that changed.
    static func check(_ album: Album, changedFrom before: Album? = nil) throws(LibraryError) {
        let problems = AlbumRules.problems(in: album, changedFrom: before)
        guard !problems.isEmpty else { return }
        let flags = ["cover_url": "--cover"]
        throw LibraryError(reasons: problems.map { "\(flags[$0.field] ?? "--" + $0.field) \($0.reason)" } + ["nothing was changed"])
    }
}
