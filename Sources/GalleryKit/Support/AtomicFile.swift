import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that a reader, or a crash, only ever sees the old bytes or the new ones.
///
/// The bytes go to a temporary file in the same folder, are flushed with `fsync`, and the file is
/// renamed over the target; the folder is then synced so the rename itself survives a power cut.
public enum AtomicFile {
    /// An I/O failure, with the path and the system's reason.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        /// The file that could not be written.
        public var path: String
        /// The system's reason.
        public var reason: String
        /// The file did not hold the bytes the writer expected to replace, so it was left as it
        /// is (see ``AtomicFile/write(_:to:sync:permissions:replacing:)``).
        public var changedMeanwhile = false
        /// The writer stopped before it changed anything (a build's output folder left as it was).
        public var refusedBeforeWriting = false

        public var description: String { "\(path): \(reason)" }
    }

    /// Replaces (or creates) the file at `url` with `data`, atomically.
    ///
    /// - Parameters:
    ///   - sync: Whether to `fsync` the file and its folder. Archives always sync; bulk site
    ///     output may skip it, since a killed build is simply run again.
    ///   - permissions: The new file's permission bits (those of the file it replaces, so a
    ///     private file stays private), set exactly, whatever the umask; `nil` gives a new file's
    ///     default, 0644 less the umask. The temporary file is never readable by more users than
    ///     these allow, not even while it is written.
    ///   - owner: The owner and group the file keeps (those of the file it replaces), as far as
    ///     this process may give them: root gives both (`sudo gallery add` used to take a user's
    ///     archive away from them), anyone else the group, if they are in it.
    ///   - expected: The bytes the file must still hold when the new ones are ready (what the
    ///     writer read): when it holds others, or is gone, nothing is replaced, and the error says
    ///     ``WriteError/changedMeanwhile``. The file is compared just before the rename, so
    ///     another program's save is lost only if it lands in the microseconds between the two.
    public static func write(_ data: some Collection<UInt8>, to url: URL, sync: Bool = true, permissions: mode_t? = nil, owner: FileOwner? = nil, replacing expected: [UInt8]? = nil) throws(WriteError) {
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/.\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions ?? 0o666)
        guard descriptor >= 0 else {
            // The folder, not the file: a writable file in a read-only folder was blamed itself.
            let code = errno
            guard code == EACCES || code == EROFS else { throw WriteError(path: url.path, reason: systemError()) }
            let name = SiteFolder.display(URL(fileURLWithPath: folder, isDirectory: true))
            let fix = code == EROFS ? "the file system is mounted read-only" : "make it writable (chmod u+w \(name)) for the user running gallery"
            throw WriteError(path: url.path, reason: "the folder \(name) cannot be written (\(String(cString: strerror(code)))): a new version is written beside the file and renamed over it; \(fix)")
        }
        var failure: String?
        // Before the mode: a change of owner clears the set-id bits.
        owner?.give(descriptor)
        // The umask took bits away at open(2); put back those the old file had (group write).
        if let permissions, fchmod(descriptor, permissions) != 0 { failure = systemError() }
        let written = failure == nil && (data.withContiguousStorageIfAvailable { buffer in writeAll(descriptor, buffer) }
            ?? Array(data).withUnsafeBufferPointer { buffer in writeAll(descriptor, buffer) })
        if !written, failure == nil { failure = systemError() }
        if failure == nil, sync, fsync(descriptor) != 0 { failure = systemError() }
        if close(descriptor) != 0, failure == nil { failure = systemError() }
        if failure == nil, let expected, (try? Data(contentsOf: url)).map(Array.init) != expected {
            unlink(temporary)
            throw WriteError(path: url.path, reason: "it changed on disk since it was read", changedMeanwhile: true)
        }
        if failure == nil, rename(temporary, url.path) != 0 { failure = systemError() }
        if let failure {
            unlink(temporary)
            throw WriteError(path: url.path, reason: failure)
        }
        if sync { syncFolder(folder) }
    }

    /// Deletes temporary files that a killed writer left beside `url` (`.NAME.tmp-PID-…`), so
    /// crashes do not pile up debris next to the archive.
    ///
    /// - Parameter holdingLock: The caller holds the lock every writer of `url` takes, so any
    ///   temporary file is abandoned. Otherwise only those whose process is gone are removed
    ///   (process ids are reused, so this can miss some; it never removes a live writer's file).
    public static func removeAbandonedTemporaries(besides url: URL, holdingLock: Bool = false) {
        let folder = url.deletingLastPathComponent().path
        let prefix = ".\(url.lastPathComponent).tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            let pidText = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = Int32(pidText), pid != getpid() else { continue }
            if holdingLock || (kill(pid, 0) != 0 && errno == ESRCH) { unlink(folder + "/" + name) }
        }
    }

    /// Writes bytes straight into a new or truncated file, for files no reader sees until they
    /// are renamed into place (the staging folder). A new file's mode is 0666 less the umask, as
    /// any tool's: a team's web root built under umask 002 stays writable by the group.
    public static func writeInPlace(_ data: some Collection<UInt8>, to path: String) throws(WriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: systemError()) }
        try fill(descriptor, with: data, path: path)
    }

    /// ``writeInPlace(_:to:)`` for `path` relative to the open folder `folder`, whose own path
    /// is `folderPath` (for messages). When the file's folder is missing, `makeFolder` makes it
    /// (and says whether it did) and the file is opened again.
    public static func writeInPlace(
        _ data: some Collection<UInt8>, at path: String, in folder: Int32, named folderPath: String, makingFolder makeFolder: () throws -> Bool
    ) throws {
        var descriptor = openat(folder, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        if descriptor < 0, errno == ENOENT, try makeFolder() {
            descriptor = openat(folder, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        }
        guard descriptor >= 0 else { throw WriteError(path: folderPath + "/" + path, reason: systemError()) }
        try fill(descriptor, with: data, path: folderPath + "/" + path)
    }

    /// Writes `data` to the new file `descriptor` (at `path`, for messages) and closes it.
    private static func fill(_ descriptor: Int32, with data: some Collection<UInt8>, path: @autoclosure () -> String) throws(WriteError) {
        let written = data.withContiguousStorageIfAvailable { buffer in writeAll(descriptor, buffer) }
            ?? Array(data).withUnsafeBufferPointer { buffer in writeAll(descriptor, buffer) }
        let failure = written ? nil : systemError()
        if close(descriptor) != 0, failure == nil { throw WriteError(path: path(), reason: systemError()) }
        if let failure { throw WriteError(path: path(), reason: failure) }
    }

    /// Writes a copy of the file at `source` to `path` (created or emptied first; no rename),
    /// a piece at a time, so a file of any size costs a mebibyte of memory. With `hash`, the
    /// bytes copied must have that ``FastHash/contentHash(_:)``, as when the source was read
    /// before: a file changed in between is an error that names it, not a copy of other bytes
    /// under the record of the first.
    public static func copyInPlace(from source: String, to path: String, expecting hash: UInt64? = nil) throws(WriteError) {
        let input = open(source, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard input >= 0 else { throw WriteError(path: source, reason: systemError()) }
        defer { close(input) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: systemError()) }
        var failure: String?
        // A write that fails (a full disk) stops the copy at that piece.
        let copied = try? FileBytes.pieces(of: input) { piece in
            guard writeAll(descriptor, piece.assumingMemoryBound(to: UInt8.self)) else {
                failure = systemError()
                throw WriteError(path: path, reason: failure ?? "")
            }
        }
        let readFailure = copied == nil && failure == nil ? systemError() : nil
        if close(descriptor) != 0, failure == nil { failure = systemError() }
        if let failure { throw WriteError(path: path, reason: failure) }
        guard let copied = copied ?? nil else { throw WriteError(path: source, reason: "it cannot be read: \(readFailure ?? "")") }
        if let hash, copied.hash != hash {
            throw WriteError(path: source, reason: "it changed while the build copied it; run the build again once it is saved")
        }
    }

    /// The permission bits of the file at `path` (following symbolic links), or `nil` when
    /// there is none.
    public static func permissions(of path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o777
    }

    /// The owner and group of the file at `path` (following symbolic links), or `nil` when
    /// there is none.
    public static func owner(of path: String) -> FileOwner? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileOwner(user: status.st_uid, group: status.st_gid)
    }

    /// Flushes a folder's entries (renames, new files) to disk.
    public static func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private static func writeAll(_ descriptor: Int32, _ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard var pointer = buffer.baseAddress else { return true }
        var remaining = buffer.count
        while remaining > 0 {
            let count = Glibc.write(descriptor, pointer, remaining)
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            pointer += count
            remaining -= count
        }
        return true
    }

    /// The system's reason for the call that just failed, with what to do when it is a limit
    /// (``ReadFailure/reason(errno:)``): a build out of descriptors meets it at a write as often
    /// as at a read.
    static func systemError() -> String {
        ReadFailure.reason(errno: errno)
    }
}

/// Who owns a file: what a save that replaces it keeps.
public struct FileOwner: Sendable, Hashable {
    /// The owner's user id.
    public var user: uid_t
    /// The group id.
    public var group: gid_t

    /// An owner.
    public init(user: uid_t, group: gid_t) {
        self.user = user
        self.group = group
    }

    /// Gives the open file this owner and group, as far as the process may: root gives both,
    /// another user only the group, when they are in it (otherwise the file stays theirs, as
    /// any new file would).
    func give(_ descriptor: Int32) {
        let isRoot = geteuid() == 0
        guard (isRoot && user != geteuid()) || group != getegid() else { return }
        _ = fchown(descriptor, isRoot ? user : uid_t.max, group)
    }
}
