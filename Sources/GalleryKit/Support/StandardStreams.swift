import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Writes to standard output and standard error without ever stopping the process.
///
/// Foundation's `FileHandle.write(_:)` traps when the write fails, so `gallery build 2>&-`, or
/// output into a pipe whose reader has gone, crashed with "Illegal instruction" (after `add` had
/// saved its album, so a script that retried added it twice). Here a failed write is dropped:
/// what was meant for a closed stream, or a pipe whose reader has gone (`| head -1`), has
/// nowhere to go, and the command's work and exit status stand. Any other failure of standard
/// output (a full disk under `> build-log.jsonl`) is kept as ``lostOutput``, so the command can
/// end with an error rather than a green CI step with an empty log.
public enum StandardStreams {
    /// Writes `text` to standard error.
    public static func error(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// Writes `text` to standard output.
    public static func output(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    private static let lost = Mutex<String?>(nil)

    /// Why output meant for a file or terminal was lost, for the first write that failed other
    /// than for a closed stream or a reader that left; `nil` when none was.
    public static var lostOutput: String? { lost.withLock { $0 } }

    /// Opens `/dev/null` on standard input, output or error when the command was started with
    /// one closed (`gallery build >&-`): otherwise the next file the command opens takes its
    /// number, and what was meant for the terminal is written into it (a page, the archive).
    /// Called first thing, before any file is opened.
    public static func reopenClosed() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", O_RDWR)
            // open takes the lowest free number, which is this one; anything else is closed again.
            if opened >= 0, opened != descriptor { close(opened) }
        }
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            guard var next = bytes.baseAddress else { return }
            var left = bytes.count
            while left > 0 {
                let written = Glibc.write(descriptor, next, left)
                if written < 0, errno == EINTR { continue }
                // A stream its parent left non-blocking (a pipe a reader drains slowly) is full
                // for now: wait until it takes more, as a blocking write would.
                if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, 1000)
                    continue
                }
                guard written > 0 else {
                    // Standard error's own loss has nowhere to be told.
                    let code = written < 0 ? errno : ENOSPC
                    if descriptor == STDOUT_FILENO, code != EPIPE, code != EBADF {
                        let reason = String(cString: strerror(code))
                        lost.withLock { $0 = $0 ?? "some output to standard output was lost (\(reason))" }
                    }
                    return
                }
                next += written
                left -= written
            }
        }
    }
}
