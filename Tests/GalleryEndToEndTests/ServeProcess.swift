import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A running `gallery serve --port 0`, for tests: started in a site folder, its port read from
/// the `Serving http://127.0.0.1:PORT/` line, killed (SIGKILL) when the test ends if it is still
/// running. Its output goes to files, and every wait has a deadline and holds no thread.
final class ServeProcess {
    /// A file the child writes one of its streams to; read afresh on every look, so nothing
    /// waits on a pipe of a process that does not end.
    final class Capture: Sendable {
        let url: URL
        init(_ url: URL) { self.url = url }
        var value: String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let process = Process()
    /// Where the captured output lives; removed with the process object.
    let captures = FileManager.default.temporaryDirectory.appending(path: "gallery-serve-\(UUID().uuidString)", directoryHint: .isDirectory)
    let stdout: Capture
    let stderr: Capture
    /// The port the server listens on.
    private(set) var port = 0
    /// The URL it announced.
    private(set) var url = ""

    /// Starts `gallery serve --port PORT EXTRA` (no `--port` when `port` is `nil`) in `folder` and waits (at most `timeout` seconds)
    /// for it to announce its URL. With `blockingShutdownSignals`, the child starts with SIGINT
    /// and SIGTERM blocked, as it does when a parent spawns it from a thread that blocks them.
    init(in folder: URL, port requested: Int? = 0, arguments: [String] = [], blockingShutdownSignals: Bool = false, timeout: Double = 120) async throws {
        process.executableURL = GalleryBinary.url
        process.arguments = ["serve"] + (requested.map { ["--port", "\($0)"] } ?? []) + arguments
        process.currentDirectoryURL = folder
        try FileManager.default.createDirectory(at: captures, withIntermediateDirectories: true)
        stdout = Capture(captures.appending(path: "stdout"))
        stderr = Capture(captures.appending(path: "stderr"))
        _ = FileManager.default.createFile(atPath: stdout.url.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.url.path, contents: nil)
        let out = try FileHandle(forWritingTo: stdout.url)
        let err = try FileHandle(forWritingTo: stderr.url)
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardOutput = out
        process.standardError = err
        var previousMask = sigset_t()
        if blockingShutdownSignals {
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGINT)
            sigaddset(&blocked, SIGTERM)
            pthread_sigmask(SIG_BLOCK, &blocked, &previousMask)
        }
        // The child inherits the mask of the thread that spawns it; this thread's is put back at
        // once. Nothing is awaited in between, so it is the same thread throughout.
        let started = Result { try process.run() }
        if blockingShutdownSignals { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }
        try started.get()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = stdout.value.split(separator: "\n").first(where: { $0.hasPrefix("Serving http://") }) {
                url = String(line.dropFirst("Serving ".count))
                let authority = url.dropFirst("http://".count).prefix { $0 != "/" }
                port = Int(authority.split(separator: ":").last ?? "") ?? 0
                return
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        await stop()
        throw Failure(description: "gallery serve did not announce a URL; stdout: \(stdout.value) stderr: \(stderr.value)")
    }

    deinit {
        // A deinit cannot await, and must not block a thread of the cooperative pool: it kills
        // and does not wait. SIGKILL cannot be blocked or caught, so the child ends, and
        // Foundation's own thread reaps it (its Process is kept alive until then). Its output
        // files may go while it dies: an unlinked file stays writable to whoever holds it open.
        signal(SIGKILL)
        try? FileManager.default.removeItem(at: captures)
    }

    /// Sends a signal.
    func signal(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Waits at most `timeout` seconds for the process to exit; its status, or `nil` if it is
    /// still running.
    func waitForExit(timeout: Double = 20) async -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline {
            do { try await Task.sleep(for: .milliseconds(20)) } catch { break }
        }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// Kills the process if it still runs, and waits for it.
    func stop() async {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        _ = await waitForExit(timeout: 10)
    }
}
