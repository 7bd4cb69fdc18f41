import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An exclusive lock on the archive for one read-modify-write, so concurrent `gallery add`s
/// (or an `add` racing an `undo`) never lose each other's changes.
///
/// It is an advisory `flock` on `content/.albums.json.lock`; the kernel releases it when the
/// process ends, even by `kill -9`, so a crashed command never leaves the archive locked. Its
/// file stands beside the file the archive is (``ArchiveStore/lock`` resolves symbolic links),
/// so sites whose archives link one shared catalogue all take the same lock.
///
/// Whoever may change the archive may take its lock: a new lock file gets the archive's
/// permission bits, owner and group (a group-editable archive's lock is group-writable), and
/// one this user cannot write is locked through a read-only descriptor, which `flock` allows.
public struct ArchiveLock: Sendable {
    /// The lock file.
    public let url: URL
    /// The archive it guards, whose permissions a new lock file takes.
    private let archive: URL

    /// The lock for an archive file.
    public init(archive: URL) {
        self.archive = archive
        url = archive.deletingLastPathComponent().appending(path: ".\(archive.lastPathComponent).lock")
    }

    /// Runs `body` while holding the lock, waiting for other holders to finish.
    ///
    /// The archive's folder must exist: the lock never creates it, so a command run in a folder
    /// that is not a site leaves nothing behind.
    ///
    /// `waiting` is called once, before the wait, when another process holds the lock: a
    /// command behind one that is stopped (Ctrl-Z) would otherwise wait without a word.
    public func withLock<T>(waiting: () -> Void = {}, _ body: () throws -> T) throws -> T {
        let descriptor = try openLockFile()
        defer { close(descriptor) }
        guard FileLock.exclusive(descriptor, waiting: waiting) else {
            throw AtomicFile.WriteError(path: url.path, reason: AtomicFile.systemError())
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Opens the lock file, made if missing with the archive's permissions and owner.
    private func openLockFile() throws(AtomicFile.WriteError) -> Int32 {
        let mode = (AtomicFile.permissions(of: archive.path) ?? 0o644) & 0o666
        let made = open(url.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        if made >= 0 {
            AtomicFile.owner(of: archive.path)?.give(made)
            // The umask took bits away at open(2): a group-editable archive's group needs write.
            fchmod(made, mode)
            return made
        }
        if errno == EEXIST {
            let existing = open(url.path, O_RDWR | O_CLOEXEC)
            if existing >= 0 { return existing }
            // Made by another user, without write for this one: reading is enough for flock.
            if errno == EACCES || errno == EPERM || errno == EROFS {
                let readOnly = open(url.path, O_RDONLY | O_CLOEXEC)
                if readOnly >= 0 { return readOnly }
            }
        }
        let code = errno
        let reason = AtomicFile.systemError()
        let folder = SiteFolder.display(url.deletingLastPathComponent())
        throw AtomicFile.WriteError(path: url.path, reason: code == EACCES ? "\(reason): a lock file cannot be made in \(folder); the user running gallery needs write permission on that folder, as on the archive" : reason)
    }
}
