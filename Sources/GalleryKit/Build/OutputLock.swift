import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An exclusive lock on an output folder for one build, so two builds of it at once (a CI
/// retry beside a hand build, two terminals) run one after the other instead of sharing a
/// staging folder and each leaving the other's half of the site.
///
/// An advisory `flock` on a file beside the folder's manifest in the cache
/// (`.gallery-cache/builds/HASH.lock`), taken before the manifest is read and held until the
/// build ends; the kernel releases it when the process ends, even by `kill -9`. Then one on a
/// file named by the output folder's real path in the temporary folder
/// (`$TMPDIR/gallery-locks/HASH.lock`), for a build of the same folder with another cache
/// (`--cache`), which took another lock file and removed this build's staging folder; other
/// folders, siblings too, have locks of their own.
final class OutputLock: Sendable {
    private let descriptor: Int32
    private let folderDescriptor: Int32

    /// Takes the lock for the output folder `output` whose manifest is `manifest`, waiting for
    /// another build that holds it (after calling `waiting`, once); `nil` when the lock file
    /// cannot be made (a cache that cannot be written, which the build reports on its own).
    init?(manifest: URL, output: URL, waiting: () -> Void) {
        let file = manifest.deletingPathExtension().appendingPathExtension("lock")
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        var waited = false
        guard FileLock.exclusive(descriptor, waiting: { waited = true; waiting() }) else { close(descriptor); return nil }
        folderDescriptor = Self.openFolderLock(for: output)
        if folderDescriptor >= 0, !FileLock.exclusive(folderDescriptor, waiting: { if !waited { waiting() } }) {
            close(folderDescriptor)
            close(descriptor)
            return nil
        }
    }

    /// The lock file of an output folder, shared by every user's builds (a group's web root),
    /// opened; -1 when the temporary folder cannot hold one (the cache's lock still serves).
    private static func openFolderLock(for output: URL) -> Int32 {
        let folder = FileManager.default.temporaryDirectory.appending(path: "gallery-locks").path
        // Anyone may add a lock file there, and remove only their own (the sticky bit). A folder
        // an older gallery made 0755 is opened up by whoever owns it (the others cannot).
        _ = mkdir(folder, 0o1777)
        var info = stat()
        if lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid(), info.st_mode & 0o7777 != 0o1777 { chmod(folder, 0o1777) }
        let name = folder + "/" + FastHash.hash(BuildManifest.realPath(output)).hex16 + ".lock"
        // Not through a link planted in its place; read-only when another user made it.
        let writable = open(name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o666)
        return writable >= 0 ? writable : open(name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    }

    deinit {
        if folderDescriptor >= 0 { close(folderDescriptor) }
        close(descriptor)
    }
}
