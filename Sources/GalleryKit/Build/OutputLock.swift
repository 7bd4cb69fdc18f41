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
/// build ends; the kernel releases it when the process ends, even by `kill -9`. Then one on the
/// output folder itself (its parent while it is not made yet), for a build of the same folder
/// with another cache (`--cache`), which took another lock file and removed this build's
/// staging folder.
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
        guard Self.take(descriptor, waiting: { waited = true; waiting() }) else { close(descriptor); return nil }
        let path = output.standardizedFileURL.path
        var folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder < 0 { folder = open(PathText.parent(of: path).isEmpty ? "/" : PathText.parent(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        folderDescriptor = folder
        if folder >= 0, !Self.take(folder, waiting: { if !waited { waiting() } }) {
            close(folder)
            close(descriptor)
            return nil
        }
    }

    /// Takes an exclusive lock on `descriptor`, calling `waiting` first when another holds it.
    private static func take(_ descriptor: Int32, waiting: () -> Void) -> Bool {
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
        waiting()
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { return false }
        }
        return true
    }

    deinit {
        if folderDescriptor >= 0 { close(folderDescriptor) }
        close(descriptor)
    }
}
