import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An exclusive advisory lock (`flock`) on an open file, as the archive's, an output folder's
/// and the cover index's locks take it: at once when free, else after telling `waiting`
/// (once), through any signals that interrupt the wait.
enum FileLock {
    /// Takes the lock on `descriptor`; `false` when it cannot be taken (not a signal: a file
    /// system without locks), with `errno` saying why.
    static func exclusive(_ descriptor: Int32, waiting: () -> Void = {}) -> Bool {
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
        if errno == EWOULDBLOCK { waiting() }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { return false }
        }
        return true
    }
}
