import Foundation
import Testing

/// Runs the built `gallery` executable, as a user would, and captures what it prints.
struct GalleryBinary {
    /// What a run produced.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `gallery` binary next to the test bundle (`swift build` puts both in the same folder),
    /// or `$GALLERY_BIN`.
    static let url: URL = {
        if let path = ProcessInfo.processInfo.environment["GALLERY_BIN"] { return URL(fileURLWithPath: path) }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = bundle.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appending(path: "gallery")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return bundle.deletingLastPathComponent().appending(path: "gallery")
    }()

    /// Runs `gallery ARGUMENTS` in `directory` (with another copy of the binary, if given).
    ///
    /// A copy made by ``copy(to:)`` can fail to start with "Text file busy" for a moment: a
    /// child that a parallel test was starting right then may still hold the copy's write
    /// descriptor, between its fork and its exec. That is retried, as Go's test runner does.
    static func run(_ arguments: [String], in directory: URL, binary: URL = url) async throws -> Run {
        var attempt = 1
        while true {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.currentDirectoryURL = directory
            do {
                return try await captured(process)
            } catch let error as NSError where attempt < 20 && isTextFileBusy(error) {
                attempt += 1
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    private static func isTextFileBusy(_ error: NSError) -> Bool {
        let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
        return [error, underlying].contains { $0?.domain == NSPOSIXErrorDomain && $0?.code == Int(ETXTBSY) }
    }

    /// Copies the binary to `destination` (for a test that needs a second gallery executable),
    /// through a descriptor closed on exec, so no child started meanwhile keeps it open for
    /// writing, which would stop the copy from running ("Text file busy").
    static func copy(to destination: URL) throws {
        let bytes = try Data(contentsOf: url)
        let descriptor = open(destination.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 { if errno == EINTR { continue } else { return false } }
                offset += count
            }
            return true
        }
        guard written else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Runs a prepared process to its end and returns what it printed.
    ///
    /// Output goes to files, not pipes: a long-running child started by a parallel test (the
    /// cover server) may inherit a pipe's write end, and reading to end-of-file would then wait
    /// for that child instead of this one.
    static func captured(_ process: Process) async throws -> Run {
        let scratch = FileManager.default.temporaryDirectory.appending(path: "gallery-run-\(UUID().uuidString)")
        let outURL = scratch.appendingPathExtension("out")
        let errURL = scratch.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        try await runToExit(process)
        try out.close()
        try err.close()
        let stdout = String(decoding: try Data(contentsOf: outURL), as: UTF8.self)
        let stderr = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        return Run(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// Starts a prepared process and returns once it has exited, holding no thread meanwhile.
    ///
    /// All test targets share one process, and a test that blocked in `waitUntilExit()` would
    /// hold one of the few threads of the cooperative pool, starving timing-sensitive async tests
    /// elsewhere. The termination handler is set before `run()`, inside the continuation, so an
    /// exit that comes at once still finds a continuation to resume. Foundation calls the handler
    /// on a thread of its own, after the exit status is recorded.
    static func runToExit(_ process: Process) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                // Nothing was started, so the handler never runs: this is the only resumption.
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }

    /// Waits, holding no thread, until a process the caller started with `run()` has exited.
    ///
    /// For a test that needs the child running before it waits (to kill it at a chosen moment,
    /// or to start many at once): it looks at `isRunning` every 10 ms, sleeping in between.
    static func waitForExit(of process: Process) async throws {
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
    }
}

/// A temporary folder, removed when the test ends.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "gallery-e2e-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes text to a path inside the folder, creating folders.
    func write(_ text: String, to path: String) throws {
        let target = url.appending(path: path)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target)
    }

    /// The text of a file inside the folder.
    func read(_ path: String) throws -> String {
        try String(contentsOf: url.appending(path: path), encoding: .utf8)
    }

    /// Whether a file exists inside the folder.
    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appending(path: path).path)
    }

    /// Every regular file below a folder inside this one, as sorted relative paths.
    func files(under path: String) -> [String] {
        let base = url.appending(path: path).standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        var result: [String] = []
        for case let relative as String in walker {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + relative, isDirectory: &isDirectory), !isDirectory.boolValue {
                result.append(relative)
            }
        }
        return result.sorted()
    }

    /// Every file below a folder inside this one and its inode: a file gallery rewrote (it
    /// writes by rename) has a new one, a file it left alone keeps its own.
    func inodes(under path: String = "public") throws -> [String: UInt64] {
        var result: [String: UInt64] = [:]
        for file in files(under: path) {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.appending(path: "\(path)/\(file)").path)
            result[file] = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
        }
        return result
    }

    /// The files of `after` that are new or were rewritten since `before` (both from ``inodes(under:)``).
    static func changed(_ before: [String: UInt64], _ after: [String: UInt64]) -> Set<String> {
        Set(after.keys.filter { before[$0] != after[$0] })
    }
}

/// Albums for test archives.
enum Fixture {
    static func album(_ title: String, _ artist: String, year: Int = 2000, cover: String = "covers/a.svg", slug: String? = nil) -> String {
        let quote = { (text: String) -> String in
            let data = try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
            return String(decoding: (data ?? Data()).dropFirst().dropLast(), as: UTF8.self)
        }
        var fields = "\"title\": \(quote(title)), \"artist\": \(quote(artist)), \"genre\": \"Pop\", \"year\": \(year), \"cover_url\": \(quote(cover))"
        if let slug { fields += ", \"slug\": \(quote(slug))" }
        return "{\(fields)}"
    }

    static func archive(_ albums: [String]) -> String {
        "{\"version\": 1, \"albums\": [\n" + albums.joined(separator: ",\n") + "\n]}\n"
    }

    static let cover = """
    <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10"><rect width="10" height="10" fill="#c33"/></svg>
    """

    /// A site folder with albums and one shared cover.
    static func site(_ albums: [String], config: String? = nil) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(archive(albums), to: "content/albums.json")
        try folder.write(cover, to: "content/covers/a.svg")
        if let config { try folder.write(config, to: "gallery.toml") }
        return folder
    }
}

/// Tests of commands run on a starter site: `gallery init` makes it as `site/` in a temporary
/// folder, and the commands name it with `--site`.
protocol StarterSiteTests {}

extension StarterSiteTests {
    /// A temporary folder holding a new starter site, `site/`.
    func starter() async throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        return folder
    }

    /// Runs a command on the site `site` (by default the starter) of `folder`.
    func run(_ arguments: [String], _ folder: TemporaryFolder, site: String = "site") async throws -> GalleryBinary.Run {
        try await GalleryBinary.run(arguments + ["--site", site], in: folder.url)
    }
}
