import Foundation
import Testing

/// A build stopped by a signal (Ctrl-C, `kill`, a CI job cancelled) removes its staging folder
/// inside the output, which was left full of pages that a deploy before the next build
/// published; it says so in one line, and ends as the signal asks.
@Suite struct StoppedBuildTests {
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aStoppedBuildLeavesNoStagedPages(signal: Int32) async throws {
        // Enough albums that rendering takes a while, even on a fast machine.
        let site = try Fixture.site((1...1500).map { Fixture.album("Title \($0)", "Artist \($0 % 40)") })
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let index = try site.read("public/index.html")
        let process = Process()
        process.executableURL = GalleryBinary.url
        process.arguments = ["build", "--clean", "-q"]
        process.currentDirectoryURL = site.url
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(await Self.stopWhileStaging(process, in: site, with: signal), "the build ended before it could be stopped")
        try await GalleryBinary.waitForExit(of: process)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal, "\(process.terminationReason) \(process.terminationStatus): \(said)")
        let name = [SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP"][signal] ?? ""
        #expect(said == "\nstopped by \(name); the output folder was not changed\n", "\(said)")
        #expect(!site.exists("public/.gallery-staging"))
        #expect(try site.read("public/index.html") == index)
        #expect(try await GalleryBinary.run(["check", "-q"], in: site.url).status == 0)
    }

    /// Sends `signal` to a build of `site` once it stages pages; whether it was still running.
    /// Watched by a thread of its own: a task on the test run's shared threads, which other
    /// tests block for seconds, saw the pages late.
    static func stopWhileStaging(_ build: Process, in site: TemporaryFolder, with signal: Int32) async -> Bool {
        let staging = site.url.appending(path: "public/.gallery-staging/albums").path
        return await withCheckedContinuation { continuation in
            Thread {
                let deadline = Date().addingTimeInterval(60)
                while build.isRunning, Date() < deadline, !FileManager.default.fileExists(atPath: staging) { usleep(500) }
                continuation.resume(returning: build.isRunning && kill(build.processIdentifier, signal) == 0)
            }.start()
        }
    }

    /// A JSON log ends with a summary however the build ended: a CI job that prints the last
    /// line as the summary printed a cover or step event when the job was cancelled (a QA pass).
    @Test func aStoppedBuildsJSONLogEndsWithASummary() async throws {
        let site = try Fixture.site((1...1500).map { Fixture.album("Title \($0)", "Artist \($0 % 40)") })
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let process = Process()
        process.executableURL = GalleryBinary.url
        process.arguments = ["build", "--clean", "--log-format", "json"]
        process.currentDirectoryURL = site.url
        let events = Pipe()
        process.standardOutput = events
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(await Self.stopWhileStaging(process, in: site, with: SIGTERM), "the build ended before it could be stopped")
        let log = String(decoding: events.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try await GalleryBinary.waitForExit(of: process)
        let last = try #require(log.split(separator: "\n").last.map(String.init))
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any], "\(last)")
        #expect(summary["event"] as? String == "summary" && summary["succeeded"] as? Bool == false, "\(last)")
        #expect(summary["stopped_by"] as? String == "SIGTERM", "\(last)")
        #expect((summary["failed_step"] as? String).map { !$0.isEmpty } == true, "the step under way: \(last)")
        #expect(log.components(separatedBy: "\"stopped_by\"").count == 2, "one summary")
    }
}
