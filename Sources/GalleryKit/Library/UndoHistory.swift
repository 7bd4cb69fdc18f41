import Foundation

/// The changes `gallery undo` can reverse, newest last: the seed's stack of (album, index)
/// mementos, kept beside the archive in `content/.albums.json.history` (beside the file it links
/// to, for an archive that is a link) so it survives between invocations, and bounded.
public struct UndoHistory: Sendable, Hashable, Codable {
    /// The file format's version.
    public var version = 1
    /// The changes, oldest first.
    public var changes: [LibraryChange] = []
    /// The changes undone since the last new one, the most recently undone last: what
    /// `gallery redo` makes again. A new change forgets them.
    public var undone: [LibraryChange] = []
    /// How many of the oldest changes the limit has made it forget, so that an undo past them
    /// can say why there is nothing left.
    public var forgotten = 0

    /// An empty history.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case version, changes, undone, forgotten
    }

    /// Reads a history; one written before there was redo has nothing undone.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        changes = try container.decode([LibraryChange].self, forKey: .changes)
        undone = try container.decodeIfPresent([LibraryChange].self, forKey: .undone) ?? []
        forgotten = try container.decodeIfPresent(Int.self, forKey: .forgotten) ?? 0
    }

    /// More albums than any archive holds (the archive's own limit is far below).
    static let mostAlbums = 1 << 31

    /// The history file of an archive.
    public static func file(for archive: URL) -> URL {
        archive.deletingLastPathComponent().appending(path: ".\(archive.lastPathComponent).history")
    }

    /// Reads a history file; a missing file is an empty history, and so is an unreadable one
    /// (with a warning): losing undo steps must never block editing.
    public static func load(from url: URL) -> (history: UndoHistory, warning: String?) {
        guard let data = try? Data(contentsOf: url) else { return (UndoHistory(), nil) }
        do {
            let history = try JSONDecoder().decode(UndoHistory.self, from: data)
            // An index or count no archive can have (a hand edit, a damaged file): the arithmetic
            // on it (a number is an index plus one) trapped.
            let plausible = 0...Self.mostAlbums
            guard plausible.contains(history.forgotten), (history.changes + history.undone).allSatisfy({ $0.indices.allSatisfy(plausible.contains) }) else {
                return (UndoHistory(), "the undo history \(SiteFolder.display(url)) holds an album number no archive has and was started afresh")
            }
            return (history, nil)
        } catch {
            return (UndoHistory(), "the undo history \(SiteFolder.display(url)) is unreadable and was started afresh")
        }
    }

    /// Writes the history atomically; call it holding the archive's lock.
    ///
    /// - Parameters:
    ///   - permissions: The archive's permission bits: the history holds its albums, so it is
    ///     no more readable than the archive is.
    ///   - owner: The archive's owner and group, which the history gets as far as it may.
    public func save(to url: URL, permissions: mode_t? = nil, owner: FileOwner? = nil) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        AtomicFile.removeAbandonedTemporaries(besides: url, holdingLock: true)
        try AtomicFile.write(Array(try encoder.encode(self)), to: url, permissions: permissions, owner: owner)
    }

    /// Records a new change, forgetting the oldest beyond `limit`, and what was undone before
    /// it (as an editor's redo forgets when the text changes).
    public mutating func record(_ change: LibraryChange, limit: Int) {
        undone.removeAll()
        append(change, limit: limit)
    }

    /// Makes again the change most recently undone: back among the changes, which stay bounded;
    /// `nil` when nothing was undone.
    public mutating func redo(limit: Int) -> LibraryChange? {
        guard let change = undone.popLast() else { return nil }
        append(change, limit: limit)
        return change
    }

    private mutating func append(_ change: LibraryChange, limit: Int) {
        changes.append(change)
        if changes.count > max(limit, 0) {
            forgotten += changes.count - max(limit, 0)
            changes.removeFirst(changes.count - max(limit, 0))
        }
    }
}
