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
    /// Where warnings go that do not stop a change (an unreadable undo history): the command
    /// line prints them; by default they are dropped.
    public var warn: @Sendable (String) -> Void = { _ in }
    /// Where notes go that only say what is happening (waiting for another command's lock).
    public var note: @Sendable (String) -> Void = { _ in }

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
        try delete([reference])
    }

    /// Removes the albums references (`3` or a slug) name, as one change that one undo
    /// reverses. Numbers are those of the list before the command (`gallery delete 4 7`
    /// removes what `gallery list` showed as 4 and 7), so a script need not count down.
    public func delete(_ references: [String]) throws(LibraryError) -> LibraryChange {
        try change { archive, catalogue throws(LibraryError) in
            var named: [Int: String] = [:]
            for reference in references {
                let index = try Self.resolve(reference, in: catalogue)
                if let earlier = named[index] {
                    throw LibraryError("\(earlier) and \(reference) both name album \(index + 1); name each album once; nothing was changed")
                }
                named[index] = reference
            }
            var current = archive
            var changes: [LibraryChange] = []
            // From the last: each delete leaves the indices of those before it as they were.
            for index in named.keys.sorted(by: >) {
                let (next, change) = current.deleting(at: index)
                current = next
                changes.append(change)
            }
            return (current, changes.count == 1 ? changes[0] : .batch(changes))
        }
    }

    /// Reverses the most recent change still in the history and forgets it.
    ///
    /// A change that can no longer be reversed (the archive was edited by hand since) stays in
    /// the history, and the error says how ``skipUndo()`` gets past it.
    ///
    /// - Returns: The change that was undone.
    public func undo() throws(LibraryError) -> LibraryChange {
        try lockedRetrying { () throws(LibraryError) -> LibraryChange? in
            var history = loadHistory()
            guard let last = history.changes.popLast() else {
                throw LibraryError(nothingToUndo)
            }
            history.undone.append(last)
            let saved = try replay(
                { archive throws(LibraryError) in try archive.undoing(last) }, history: history,
                failing: "cannot undo the most recent change (\(last.summary))",
                advice: "`gallery undo --skip` forgets that change and leaves the archive as it is, so the next undo reaches the change before it"
            )
            return saved ? last : nil
        }
    }

    /// Makes again the change most recently undone (undo, then redo, leaves the archive as it
    /// was before the undo). A new change since the undo, or `undo --skip`, leaves nothing to
    /// redo.
    ///
    /// - Returns: The change made again.
    public func redo() throws(LibraryError) -> LibraryChange {
        try lockedRetrying { () throws(LibraryError) -> LibraryChange? in
            let previous = loadHistory()
            var history = previous
            guard let change = history.redo(limit: undoLimit) else {
                throw LibraryError("there is nothing to redo: `gallery redo` makes again what `gallery undo` took back, until the next change")
            }
            let saved = try replay(
                { archive throws(LibraryError) in try archive.redoing(change) }, history: history,
                failing: "cannot redo \(change.summary)",
                advice: "nothing was changed; make the change again by hand if you still want it (the next change forgets what was undone)",
                historyFirstOver: previous
            )
            return saved ? change : nil
        }
    }

    /// Undoes or redoes a change (`apply`) on the archive, checks and saves the result with
    /// `history`; a change the archive no longer allows (it was edited by hand since) is an
    /// error, each reason after `failing`, then `advice`, and nothing is saved.
    ///
    /// - Returns: Whether it saved; `false` when the archive changed on disk meanwhile (see
    ///   ``save(_:history:replacing:historyFirstOver:)``), and nothing was written.
    private func replay(_ apply: (AlbumArchive) throws(LibraryError) -> AlbumArchive, history: UndoHistory, failing: String, advice: String, historyFirstOver previous: UndoHistory? = nil) throws(LibraryError) -> Bool {
        guard let (current, bytes) = try loadForChange() else { return false }
        let archive: AlbumArchive
        do throws(LibraryError) {
            archive = try apply(current)
            try check(archive)
        } catch {
            throw LibraryError(reasons: error.reasons.filter { $0 != "nothing was changed" }.map { "\(failing): \($0)" } + [advice])
        }
        return try save(archive, history: history, replacing: bytes, historyFirstOver: previous)
    }

    /// Why an undo finds no change, with the reason when it is the settings'.
    var nothingToUndo: String {
        if undoLimit == 0 { return "there is nothing to undo: [library] undo_limit = 0 in gallery.toml keeps no changes to undo" }
        let forgotten = UndoHistory.load(from: historyFile).history.forgotten
        guard forgotten > 0 else { return "there is nothing to undo" }
        return "there is nothing left to undo: the history keeps the last \(undoLimit) changes ([library] undo_limit in gallery.toml), and forgot \(forgotten) older one\(forgotten == 1 ? "" : "s")"
    }

    /// Forgets the most recent change in the history without reversing it, leaving the archive
    /// as it is: the way past a change that can no longer be undone.
    ///
    /// - Returns: The change that was forgotten.
    public func skipUndo() throws(LibraryError) -> LibraryChange {
        try locked { () throws(LibraryError) in
            var history = loadHistory()
            guard let last = history.changes.popLast() else {
                throw LibraryError(nothingToUndo)
            }
            // What was undone before it was undone on top of it: it cannot be made again.
            history.undone.removeAll()
            do {
                try history.save(to: historyFile, permissions: store.permissions, owner: store.owner)
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
        try lockedRetrying { () throws(LibraryError) -> LibraryChange? in
            guard let (archive, bytes) = try loadForChange() else { return nil }
            let (changed, change) = try transform(archive, Catalogue(albums: archive.albums))
            if changed.albums == archive.albums { return change }
            if dryRun {
                try check(changed)
                return change
            }
            let previous = loadHistory()
            var history = previous
            history.record(change, limit: undoLimit)
            return try save(changed, history: history, replacing: bytes, historyFirstOver: previous) ? change : nil
        }
    }

    /// How many times a change is made again from the archive as it is on disk, when a program
    /// that does not take the lock (an editor) saved it while the change was being made.
    static let attempts = 5

    /// Runs `attempt` under the lock until it finishes: it returns `nil` when the archive
    /// changed on disk while it worked, and then runs again on the new archive, so that a hand
    /// edit saved meanwhile is kept and the change made on top of it.
    private func lockedRetrying<T>(_ attempt: () throws(LibraryError) -> T?) throws(LibraryError) -> T {
        try locked { () throws(LibraryError) in
            for _ in 0..<Self.attempts {
                if let result = try attempt() { return result }
            }
            throw LibraryError("\(store.displayPath) changed on disk \(Self.attempts) times while gallery was changing it (another program is saving it); nothing was changed: run the command again once it is saved")
        }
    }

    /// The archive as it is now and the bytes it was read from, for a change: the save checks
    /// that the file still holds them. `nil` when the file is being written by another program
    /// (it read as broken, and as something else a moment later).
    private func loadForChange() throws(LibraryError) -> (archive: AlbumArchive, bytes: [UInt8])? {
        let bytes: [UInt8]
        do {
            bytes = try store.read()
        } catch {
            throw LibraryError(diagnostics: error.diagnostics, reasons: ["fix the archive first; nothing was changed"])
        }
        do {
            return (try AlbumArchive.decode(bytes, path: store.displayPath).archive, bytes)
        } catch {
            // An editor that writes the file in place leaves it empty or cut short for a moment.
            usleep(100_000)
            if let again = try? store.read(), again != bytes { return nil }
            throw LibraryError(diagnostics: error.diagnostics, reasons: ["fix the archive first; nothing was changed"])
        }
    }

    /// The undo history; one that cannot be read is kept aside (`….history.broken`) with a
    /// warning, and a new one started: losing undo steps must never block editing.
    private func loadHistory() -> UndoHistory {
        let (history, warning) = UndoHistory.load(from: historyFile)
        if let warning {
            let kept = historyFile.deletingLastPathComponent().appending(path: historyFile.lastPathComponent + ".broken")
            let moved = rename(historyFile.path, kept.path) == 0
            warn(moved ? "\(warning); it was kept as \(site.display(kept))" : warning)
        }
        return history
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

    /// Checks the new archive, then writes it and the history, unless the archive on disk no
    /// longer holds `bytes` (what the change was made from): another program saved it
    /// meanwhile, and writing now would lose its change.
    ///
    /// - Returns: Whether it wrote; `false` when the archive had changed, and nothing was written.
    ///
    /// The two files are written one after the other, so a process killed between them leaves
    /// one without the other. The history goes first for a change it gains (a new change, a
    /// redo: `previous` is the history before), the archive first for one it loses (an undo):
    /// either way a history that says more than the archive holds can only make an undo fail
    /// (and `undo --skip` passes it), never reverse an earlier change in its stead.
    private func save(_ archive: AlbumArchive, history: UndoHistory, replacing bytes: [UInt8], historyFirstOver previous: UndoHistory? = nil) throws(LibraryError) -> Bool {
        try check(archive)
        if previous != nil { try saveHistory(history, after: "") }
        do {
            try store.save(archive, holdingLock: true, replacing: bytes)
        } catch {
            if let previous { try? previous.save(to: historyFile, permissions: store.permissions, owner: store.owner) }
            if error.changedMeanwhile { return false }
            throw LibraryError("cannot write \(store.displayPath): \(error.reason)")
        }
        if previous == nil { try saveHistory(history, after: "the archive was saved, but ") }
        return true
    }

    private func saveHistory(_ history: UndoHistory, after prefix: String) throws(LibraryError) {
        do {
            try history.save(to: historyFile, permissions: store.permissions, owner: store.owner)
        } catch {
            throw LibraryError("\(prefix)the undo history could not be written: \(error)")
        }
    }

    /// Runs `body` holding the archive's lock; in a folder with no archive, creates nothing
    /// (not even the lock file) and says so.
    private func locked<T>(_ body: () throws(LibraryError) -> T) throws(LibraryError) -> T {
        guard store.exists else { throw LibraryError(diagnostics: [store.missing]) }
        do {
            let note = self.note
            let waiting = "another gallery command is changing \(store.displayPath); waiting for it to finish (a command stopped with Ctrl-Z holds it until it is resumed with fg)"
            return try store.lock.withLock(waiting: { note(waiting) }) { try body() }
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
