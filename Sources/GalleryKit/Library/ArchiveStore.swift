import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Loads and saves the album archive, `content/albums.json`: the seed's PersistencyManager.
///
/// Saving is atomic (temporary file, `fsync`, rename), so a crash leaves the old archive or the
/// new one, never a mix.
public struct ArchiveStore: Sendable {
    /// The archive file.
    public let url: URL
    /// How messages name it.
    public let displayPath: String

    /// A store for the archive of a site folder.
    public init(site: SiteFolder) {
        self.url = site.archive
        self.displayPath = site.display(site.archive)
    }

    /// A store for an archive file anywhere.
    public init(url: URL, displayPath: String? = nil) {
        self.url = url.standardizedFileURL
        self.displayPath = displayPath ?? SiteFolder.display(url)
    }

    /// Reads and checks the archive.
    ///
    /// - Returns: The archive and any warnings.
    /// - Throws: ``ArchiveError`` naming every problem, or that there is no archive (suggesting
    ///   `gallery init`).
    public func load() throws(ArchiveError) -> (archive: AlbumArchive, warnings: [Diagnostic]) {
        try AlbumArchive.decode(read(), path: displayPath)
    }

    /// The archive's bytes, undecoded.
    ///
    /// - Throws: ``ArchiveError`` when there is no archive (suggesting `gallery init`) or it
    ///   cannot be read.
    public func read() throws(ArchiveError) -> [UInt8] {
        if let bytes = FileBytes.contents(of: url.path) { return bytes }
        // Not a file that can be read: say what it is rather than the system's vaguer words (a
        // folder was "the operation could not be completed", a pipe "you don't have permission").
        var info = stat()
        if stat(url.path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            let what = switch info.st_mode & S_IFMT {
            case S_IFDIR: "a folder"
            case S_IFIFO: "a named pipe"
            case S_IFCHR, S_IFBLK: "a device"
            default: "a special file"
            }
            throw ArchiveError([.error("the archive is \(what), not a file; content/albums.json must be a JSON file (`gallery init` writes one)", path: displayPath)])
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            if !exists { throw ArchiveError([missing]) }
            throw ArchiveError([.error("cannot read the archive: \(ReadFailure.reason(error, path: url.path))", path: displayPath)])
        }
        return Array(data)
    }

    /// Whether the archive file is there: a folder without one is not a site.
    public var exists: Bool { FileManager.default.fileExists(atPath: url.path) }

    /// What every command says in a folder with no archive (suggesting `gallery init`).
    public var missing: Diagnostic {
        let root = url.deletingLastPathComponent().deletingLastPathComponent()
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder) {
            return .error("the site folder \(SiteFolder.display(root)) does not exist; check the path, or create a site there with `gallery init \(SiteFolder.display(root))`", path: displayPath)
        }
        if !isFolder.boolValue {
            return .error("\(SiteFolder.display(root)) is a file, not a site folder; name the folder that holds content/albums.json", path: displayPath)
        }
        if let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) {
            return .error("this is a symbolic link to \(destination), which does not exist; point it at the shared archive, or remove it and run `gallery init` elsewhere", path: displayPath)
        }
        // Run from inside a site (its content/ or templates/): the site is the folder above.
        let above = root.deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: above.appending(path: "content/albums.json").path), root.standardizedFileURL.path != above.standardizedFileURL.path {
            let site = SiteFolder.display(root) == "." ? ".." : SiteFolder.display(above)
            return .error("there is no album archive here, but \(site) is a site: this is its \(root.lastPathComponent)/ folder; run gallery there, or pass --site \(site)", path: displayPath)
        }
        // The archive was here (a library command kept its backup): deleted or moved by mistake,
        // more likely than a folder that never was a site, and the backup brings it back.
        let backup = Self.backup(of: url)
        if FileManager.default.fileExists(atPath: backup.path) {
            return .error("there is no album archive here, but its backup \(SiteFolder.display(backup)) is: if the archive was deleted or moved by mistake, put it back, or copy the backup (the archive as the last library command found it) to \(displayPath)", path: displayPath)
        }
        return .error("there is no album archive here; run `gallery init DIR` to start a new site, or pass --site DIR to work on one elsewhere", path: displayPath)
    }

    /// The file the archive's path leads to, with every symbolic link resolved, however many
    /// levels and in the folders above too; the path itself while there is no file there.
    ///
    /// An archive that is a link (to a catalogue that several sites share) is written through:
    /// the new version is renamed over this file, in its folder, and ``backup``, ``lock`` and
    /// the undo history are kept beside it too, so the link stays a link and every site that
    /// links one catalogue takes the same lock.
    public var target: URL {
        guard let resolved = realpath(url.path, nil) else { return url }
        defer { free(resolved) }
        return URL(filePath: String(cString: resolved))
    }

    /// The previous version of the archive, kept by every save beside the file it is
    /// (``target``): `content/albums.json.bak`, unless the archive is a link.
    public var backup: URL { Self.backup(of: target) }

    /// The lock that serialises changes to this archive, beside the file it is (``target``).
    public var lock: ArchiveLock { ArchiveLock(archive: target) }

    /// Writes the archive atomically (temporary file, `fsync`, rename), creating `content/` if
    /// needed, after keeping the current version as ``backup``; the new file has the old one's
    /// ``permissions``. An archive that is a link is written through, in the folder of the file
    /// it leads to (``target``).
    ///
    /// A process killed at any moment leaves the archive as it was or as it is now; the backup is
    /// replaced the same way, by a rename.
    ///
    /// - Parameters:
    ///   - holdingLock: The caller holds ``lock``, so leftovers of killed writers can all be
    ///     cleared.
    ///   - expected: The bytes the archive was read from: when the file holds others just before
    ///     the new version would replace it (an editor, which takes no lock, saved it meanwhile),
    ///     nothing replaces it and the error's ``AtomicFile/WriteError/changedMeanwhile`` is set.
    public func save(_ archive: AlbumArchive, holdingLock: Bool = false, replacing expected: [UInt8]? = nil) throws(AtomicFile.WriteError) {
        let target = self.target
        do {
            try Self.save(archive, to: target, holdingLock: holdingLock, replacing: expected)
        } catch where error.changedMeanwhile {
            throw error
        } catch {
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil else { throw error }
            throw AtomicFile.WriteError(path: error.path, reason: "\(error.reason) (\(displayPath) is a link: gallery writes the new version and the backup beside the file it leads to, \(target.path), so that file's folder must be writable)")
        }
    }

    private static func save(_ archive: AlbumArchive, to url: URL, holdingLock: Bool, replacing expected: [UInt8]?) throws(AtomicFile.WriteError) {
        let folder = url.deletingLastPathComponent()
        let backup = backup(of: url)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw AtomicFile.WriteError(path: folder.path, reason: error.localizedDescription)
        }
        AtomicFile.removeAbandonedTemporaries(besides: url, holdingLock: holdingLock)
        AtomicFile.removeAbandonedTemporaries(besides: backup, holdingLock: holdingLock)
        let permissions = AtomicFile.permissions(of: url.path)
        let owner = AtomicFile.owner(of: url.path)
        // A rename replaces a file whatever its mode (and root writes anything): an archive its
        // owner made read-only, to keep it as it is, was changed without a word.
        if let permissions, permissions & 0o200 == 0 {
            var error = AtomicFile.WriteError(path: url.path, reason: "the archive is read-only (mode \(String(permissions, radix: 8))), so it was left as it is; make it writable (chmod u+w \(SiteFolder.display(url))) to change it")
            error.refusedBeforeWriting = true
            throw error
        }
        if FileManager.default.fileExists(atPath: url.path) {
            let staged = folder.appending(path: ".\(backup.lastPathComponent).tmp-\(getpid())")
            unlink(staged.path)
            if link(url.path, staged.path) != 0 {
                guard let data = try? Data(contentsOf: url) else {
                    throw AtomicFile.WriteError(path: backup.path, reason: "cannot keep a backup: \(AtomicFile.systemError())")
                }
                try AtomicFile.write(data, to: staged, permissions: permissions, owner: owner)
            }
            if rename(staged.path, backup.path) != 0 {
                throw AtomicFile.WriteError(path: backup.path, reason: AtomicFile.systemError())
            }
            // When a writer was killed between keeping the backup and writing the archive, the
            // backup is already a link to the archive's file, and rename(2) between two links
            // to one file does nothing: the staged name would stay behind.
            unlink(staged.path)
        }
        try AtomicFile.write(archive.encoded(), to: url, permissions: permissions, owner: owner, replacing: expected)
    }

    private static func backup(of file: URL) -> URL {
        file.deletingLastPathComponent().appending(path: file.lastPathComponent + ".bak")
    }

    /// The archive's permission bits, which every save keeps (a private archive stays private,
    /// a group-editable one group-editable); `nil` when there is no archive yet, whose first
    /// save gets a new file's default.
    public var permissions: mode_t? { AtomicFile.permissions(of: url.path) }

    /// The archive's owner and group, which every save keeps as far as it may (see
    /// ``FileOwner``); `nil` when there is no archive yet.
    public var owner: FileOwner? { AtomicFile.owner(of: url.path) }
}
