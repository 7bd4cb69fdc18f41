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
public struct ArchiveLock: Sendable {
    /// The lock file.
    public let url: URL

    /// The lock for an archive file.
    public init(archive: URL) {
        url = archive.deletingLastPathComponent().appending(path: ".\(archive.lastPathComponent).lock")
    }

    /// Runs `body` while holding the lock, waiting for other holders to finish.
    ///
    /// The archive's folder must exist: the lock never creates it, so a command run in a folder
    /// that is not a site leaves nothing behind.
    public func withLock<T>(_ body: () throws -> T) throws -> T {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw AtomicFile.WriteError(path: url.path, reason: AtomicFile.systemError()) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw AtomicFile.WriteError(path: url.path, reason: AtomicFile.systemError()) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
