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
/// build ends; the kernel releases it when the process ends, even by `kill -9`.
final class OutputLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock for the output folder whose manifest is `manifest`, waiting for another
    /// build that holds it (after calling `waiting`); `nil` when the lock file cannot be made
    /// (a cache that cannot be written, which the build reports on its own).
    init?(manifest: URL, waiting: () -> Void) {
        let file = manifest.deletingPathExtension().appendingPathExtension("lock")
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return }
        waiting()
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { close(descriptor); return nil }
        }
    }

    deinit {
        close(descriptor)
    }
}
