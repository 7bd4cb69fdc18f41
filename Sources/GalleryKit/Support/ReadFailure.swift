import Foundation

/// Why a file could not be read, in the system's words: Foundation's own message for a read
/// that failed for want of descriptors is "The operation could not be completed.
/// (NSCocoaErrorDomain error 256.)", and a preview server with many connections open said that
/// of gallery.toml and the archive.
enum ReadFailure {
    /// The system's reason under `error` (`Too many open files`), with what to do when it is a
    /// limit; Foundation's description when there is none.
    /// With `path`, a failure that carries no system reason (a failed open, for which
    /// Foundation keeps none) is asked of the file again, as ``reason(readingFileAt:)`` does.
    static func reason(_ error: any Error, path: String? = nil) -> String {
        let ns = error as NSError
        let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError
        let code = [underlying, ns].lazy.compactMap { $0 }.first { $0.domain == NSPOSIXErrorDomain }.map { Int32($0.code) }
        if let code { return reason(errno: code) }
        if let path { return reason(readingFileAt: path) }
        return ns.localizedDescription
    }

    /// Why the file at `path`, which a read just failed on, cannot be read: the system's
    /// reason for a failed open (read again, as Foundation's read keeps none), that it is a
    /// folder, or to check that it is a readable file.
    static func reason(readingFileAt path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return reason(errno: errno) }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return "it is a folder, not a file" }
        return "check that it is a readable file"
    }

    /// The reason for a system error number.
    static func reason(errno code: Int32) -> String {
        let text = String(cString: strerror(code))
        return code == EMFILE || code == ENFILE ? text + " (too many files are open at once; raise the limit with ulimit -n, or close some)" : text
    }
}
