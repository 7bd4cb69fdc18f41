import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Writes to standard output and standard error without ever stopping the process.
///
/// Foundation's `FileHandle.write(_:)` traps when the write fails, so `gallery build 2>&-`, or
/// output into a pipe whose reader has gone, crashed with "Illegal instruction" (after `add` had
/// saved its album, so a script that retried added it twice). Here a failed write is dropped:
/// what was meant for a closed stream has nowhere to go, and the command's work and exit status
/// stand.
public enum StandardStreams {
    /// Writes `text` to standard error.
    public static func error(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// Writes `text` to standard output.
    public static func output(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            guard var next = bytes.baseAddress else { return }
            var left = bytes.count
            while left > 0 {
                let written = Glibc.write(descriptor, next, left)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                next += written
                left -= written
            }
        }
    }
}
