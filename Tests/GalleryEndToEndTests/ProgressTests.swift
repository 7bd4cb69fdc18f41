import Foundation
import Testing

/// Cover progress as people see it: on a terminal (a real pseudo-terminal, through util-linux
/// `script`) and in a log.
@Suite struct ProgressTests {
    func site(_ server: RemoteCoverTests.CoverServer) throws -> TemporaryFolder {
        try Fixture.site([
            Fixture.album("Red", "A", cover: server.url("red.svg")),
            Fixture.album("Blue", "B", cover: server.url("blue.svg")),
            Fixture.album("Gone", "C", cover: server.url("missing.svg")),
        ])
    }

    @Test func aTerminalGetsALiveProgressLine() async throws {
        let served = try RemoteCoverTests.servedCovers()
        let server = try await RemoteCoverTests.CoverServer(serving: served.url)
        let site = try site(server)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        // -e: script exits with the command's status; the command's stderr is the terminal.
        process.arguments = ["-qefc", "'\(GalleryBinary.url.path)' build", "/dev/null"]
        process.currentDirectoryURL = site.url
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm"
        process.environment = environment
        let run = try await GalleryBinary.captured(process)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("\r\u{1B}[Kcovers ["))
        #expect(run.stdout.contains("] 3/3 · "))
        #expect(run.stdout.contains("1 failed"))
        #expect(run.stdout.contains("built 3 albums"))
    }

    @Test func aLogGetsNoEscapeCodes() async throws {
        let served = try RemoteCoverTests.servedCovers()
        let server = try await RemoteCoverTests.CoverServer(serving: served.url)
        let site = try site(server)
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status == 0)
        #expect(run.stderr.contains("covers: 3/3 (100%)"))
        #expect(!run.stderr.contains("\u{1B}"))
    }

    /// The summary line says what became of the remote covers, as the JSON summary does: a
    /// person at a terminal can tell a `--refresh` that changed nothing from one that did.
    @Test func theSummaryLineCountsDownloadedCachedAndRevalidatedCovers() async throws {
        let served = try RemoteCoverTests.servedCovers()
        let server = try await RemoteCoverTests.CoverServer(serving: served.url)
        let site = try site(server)
        func summary(_ arguments: [String]) async throws -> String {
            let run = try await GalleryBinary.run(["build"] + arguments, in: site.url)
            #expect(run.status == 0, "\(run.stderr)")
            return String(run.stderr.split(separator: "\n").last { $0.hasPrefix("built ") } ?? "")
        }
        let first = try await summary([])
        #expect(first.contains(", 2 covers downloaded, 1 album without a cover, "), "\(first)")
        let cached = try await summary(["--clean"])
        #expect(cached.contains(", 2 covers from the cache, 1 album without a cover, "), "\(cached)")
        #expect(!cached.contains("downloaded"), "\(cached)")
        let red = try served.read("red.svg")
        try served.write(red.replacingOccurrences(of: "</svg>", with: "<rect width=\"1\" height=\"1\"/></svg>"), to: "red.svg")
        let refreshed = try await summary(["--refresh"])
        #expect(refreshed.contains(", 1 cover downloaded, 1 revalidated, 1 album without a cover, "), "\(refreshed)")
    }
}
