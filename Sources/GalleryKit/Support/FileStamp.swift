import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file's size, modification time, change time and inode: what `git` keeps in its index to
/// know a file untouched without reading it.
///
/// Any write to a file, a rename onto its name or a `touch` changes its change time, which no
/// program can set back, so an equal stamp means the same bytes; a fresh checkout or a copy has
/// new times and inodes, and is simply read again.
struct FileStamp: Sendable, Hashable {
    /// The size in bytes.
    var size: Int
    /// The modification time, in nanoseconds since 1970.
    var modified: Int
    /// The change time, in nanoseconds since 1970.
    var changed: Int
    /// The inode number.
    var inode: UInt64

    /// The stamp of the file at `path` now (following symbolic links), or `nil` if there is none.
    static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(
            size: Int(info.st_size),
            modified: Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec),
            changed: Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec),
            inode: UInt64(info.st_ino)
        )
    }
}
