import Foundation
import Testing

/// Remote covers through a whole `gallery build`, from a real HTTP server on 127.0.0.1.
@Suite struct RemoteCoverTests {
    /// The cover server did not report a port within three minutes.
    struct CoverServerError: Error { static let didNotStart = CoverServerError() }

    /// The loopback cover server (Tests/Fixtures/cover-server.py), stopped when released.
    final class CoverServer {
        let process = Process()
        let port: Int
        let log: URL

        init(serving folder: URL) async throws {
            log = folder.deletingLastPathComponent().appending(path: "requests-\(UUID().uuidString).jsonl")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appending(path: "Fixtures/cover-server.py")
            let portFile = log.deletingPathExtension().appendingPathExtension("port")
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script.path, folder.path, log.path, portFile.path]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // The server writes its port to a file once it listens; wait for it, but not forever.
            // Three minutes: on two busy cores, eight Python servers started at once beside the
            // rest of the suite (Chromium, other Pythons) once all took longer than 20 seconds, and
            // a stalled machine once held them past a minute. A server that cannot start at all
            // exits, and is told at once.
            let deadline = Date().addingTimeInterval(180)
            var port: Int?
            while port == nil, Date() < deadline, process.isRunning {
                port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0) }
                if port == nil { try await Task.sleep(for: .milliseconds(50)) }
            }
            try? FileManager.default.removeItem(at: portFile)
            guard let port else {
                kill(process.processIdentifier, SIGKILL)
                throw CoverServerError.didNotStart
            }
            self.port = port
        }

        deinit {
            // SIGKILL, not terminate(): the child inherits the spawning worker thread's signal mask,
            // in which SIGTERM may be blocked. A deinit cannot await, and must not block a thread
            // of the cooperative pool, so it kills and does not wait: SIGKILL cannot be blocked or
            // caught, and Foundation's own thread reaps the child (its Process is kept alive until
            // then). The log may go first: the dying server can still write to the unlinked file.
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: log)
        }

        func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

        /// Every request the server has seen (cover requests only).
        func requests() throws -> [[String: Any]] {
            try String(decoding: Data(contentsOf: log), as: UTF8.self).split(separator: "\n").map {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
            }
        }
    }

    func site(with server: CoverServer) throws -> TemporaryFolder {
        try Fixture.site([
            Fixture.album("Red", "A", cover: server.url("red.svg")),
            Fixture.album("Blue", "B", cover: server.url("blue.svg")),
            Fixture.album("Red Again", "C", cover: server.url("red.svg")),
            Fixture.album("Gone", "D", cover: server.url("missing.svg")),
        ])
    }

    /// A red and a blue SVG cover in a folder, for a `CoverServer` to serve.
    static func servedCovers() throws -> TemporaryFolder {
        let covers = try TemporaryFolder()
        try covers.write(Fixture.cover, to: "red.svg")
        try covers.write(Fixture.cover.replacingOccurrences(of: "#c33", with: "#33c"), to: "blue.svg")
        return covers
    }

    @Test func downloadsOnceThenBuildsFromTheCacheAndOffline() async throws {
        let covers = try Self.servedCovers()
        let server = try await CoverServer(serving: covers.url)
        let site = try site(with: server)
        let first = try await GalleryBinary.run(["build", "--log-format", "json"], in: site.url)
        #expect(first.status == 0)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.split(separator: "\n").last.map(String.init)?.utf8 ?? "".utf8)) as? [String: Any])
        let counts = try #require(summary["covers"] as? [String: Any])
        #expect(counts["downloaded"] as? Int == 2)
        #expect(counts["failed"] as? Int == 1)
        // Two albums share red.svg: one request each for red, blue and the missing cover.
        let afterFirst = try server.requests()
        #expect(afterFirst.count == 3)  // a 404 is not retried
        #expect((afterFirst.first?["user_agent"] as? String)?.hasPrefix("gallery/") == true)
        #expect(first.stdout.contains("missing.svg") && first.stdout.contains("HTTP 404"))
        let before = site.files(under: "public")

        // A second build makes no request for covers it has.
        let second = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(second.status == 0)
        let afterSecond = try server.requests()
        #expect(afterSecond.filter { ($0["path"] as? String) != "/missing.svg" }.count == afterFirst.filter { ($0["path"] as? String) != "/missing.svg" }.count)

        // Offline: no request at all, and the same bytes.
        let offline = try await GalleryBinary.run(["build", "-q", "--offline", "--output", "offline"], in: site.url)
        #expect(offline.status == 0)
        // What went wrong online is said offline too: going online would not help.
        #expect(offline.stderr.contains("shows a placeholder: cover '\(server.url("missing.svg"))': not in the cover cache, and the build is offline; the builds online since 20"), "\(offline.stderr)")
        #expect(offline.stderr.contains("could not download it: HTTP 404 Not Found"), "\(offline.stderr)")
        #expect(try server.requests().count == afterSecond.count)
        #expect(site.files(under: "offline") == before)
        for path in before {
            #expect(try Data(contentsOf: site.url.appending(path: "public/\(path)")) == Data(contentsOf: site.url.appending(path: "offline/\(path)")), "\(path)")
        }
    }

    /// A damaged index of the cover cache was dropped without a word: online every cover was
    /// downloaded again, offline each was "not in the cover cache" though its bytes were there.
    @Test func aDamagedCoverIndexIsSaidAndWrittenAnew() async throws {
        let covers = try Self.servedCovers()
        let server = try await CoverServer(serving: covers.url)
        let site = try Fixture.site([Fixture.album("Red", "A", cover: server.url("red.svg"))])
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        try site.write("{\"version\": 1, \"covers\": {", to: ".gallery-cache/covers/index.json")
        let offline = try await GalleryBinary.run(["build", "-q", "--offline", "--clean"], in: site.url)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stderr.contains(".gallery-cache/covers/index.json: warning: the cover cache's index is damaged (it is not JSON the cache wrote); with --offline, the remote covers are missing until a build online downloads them again"), "\(offline.stderr)")
        let online = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(online.status == 0, "\(online.stderr)")
        #expect(online.stderr.contains("warning: the cover cache's index is damaged (it is not JSON the cache wrote); the remote covers are downloaded again, and the index written anew"), "\(online.stderr)")
        #expect(try JSONSerialization.jsonObject(with: Data(site.read(".gallery-cache/covers/index.json").utf8)) is [String: Any])
        let after = try await GalleryBinary.run(["build", "-q", "--clean"], in: site.url)
        #expect(after.status == 0 && !after.stderr.contains("damaged"), "\(after.stderr)")
    }

    @Test func anUnchangedSiteOfRemoteCoversStopsAtItsStampUntilTheCacheChanges() async throws {
        let covers = try Self.servedCovers()
        let server = try await CoverServer(serving: covers.url)
        let site = try Fixture.site([Fixture.album("Red", "A", cover: server.url("red.svg")), Fixture.album("Blue", "B", cover: server.url("blue.svg"))])
        func build(_ extra: [String] = []) async throws -> [String: Any] {
            let run = try await GalleryBinary.run(["build", "--log-format", "json"] + extra, in: site.url)
            #expect(run.status == 0, "\(run.stdout)")
            return try #require(try JSONSerialization.jsonObject(with: Data((run.stdout.split(separator: "\n").last ?? "").utf8)) as? [String: Any])
        }
        #expect(try await build()["up_to_date"] as? Bool == false)
        let requests = try server.requests().count
        let quick = try await build()
        #expect(quick["up_to_date"] as? Bool == true)
        #expect((quick["covers"] as? [String: Any])?["from_cache"] as? Int == 2)
        #expect(try server.requests().count == requests)
        // A refresh into another folder brings a new blue cover into the shared cache: the
        // default folder was built from the old one, so its next build is not a no-op.
        try covers.write(Fixture.cover.replacingOccurrences(of: "#c33", with: "#3c3"), to: "blue.svg")
        #expect(try await build(["--refresh", "--output", "other"])["up_to_date"] as? Bool == false)
        #expect(try await build()["up_to_date"] as? Bool == false)
        #expect(try site.read("public/index.html") == site.read("other/index.html"))
        #expect(try await build()["up_to_date"] as? Bool == true)
    }

    /// `--gc` forgets the cached covers no album names any more and removes their bytes (a
    /// cover shared with a URL still named stays), and the build after it still stops at its
    /// stamp. A build without it removes nothing.
    @Test func gcRemovesTheCoversNoAlbumNames() async throws {
        let covers = try Self.servedCovers()
        try covers.write(Fixture.cover, to: "red-copy.svg")
        let server = try await CoverServer(serving: covers.url)
        let site = try Fixture.site([
            Fixture.album("Red", "A", cover: server.url("red.svg")),
            Fixture.album("Blue", "B", cover: server.url("blue.svg")),
            Fixture.album("Red Copy", "C", cover: server.url("red-copy.svg")),
            Fixture.album("Gone", "D", cover: server.url("missing.svg")),
        ])
        func build(_ extra: [String] = []) async throws -> [String: Any] {
            let run = try await GalleryBinary.run(["build", "--log-format", "json"] + extra, in: site.url)
            #expect(run.status == 0, "\(run.stdout)")
            return try #require(try JSONSerialization.jsonObject(with: Data((run.stdout.split(separator: "\n").last ?? "").utf8)) as? [String: Any])
        }
        func index() throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: Data(site.read(".gallery-cache/covers/index.json").utf8)) as? [String: Any] ?? [:]
        }
        let objects = { site.files(under: ".gallery-cache/covers/objects") }
        _ = try await build()
        #expect(objects().count == 2, "red and red-copy share one object: \(objects())")
        #expect((try index()["failures"] as? [String: Any])?.count == 1)
        // Blue, the first red URL and the missing cover leave the archive.
        try site.write(Fixture.archive([Fixture.album("Red Copy", "C", cover: server.url("red-copy.svg"))]), to: "content/albums.json")
        _ = try await build()
        #expect(objects().count == 2, "without --gc nothing is removed")
        let gc = try await build(["--gc"])
        #expect((gc["covers"] as? [String: Any])?["removed"] as? Int == 1, "\(gc)")
        #expect(objects().count == 1, "blue's bytes are gone, red's stay for red-copy: \(objects())")
        let kept = try index()
        #expect((kept["covers"] as? [String: Any]).map { Array($0.keys) } == [server.url("red-copy.svg")])
        #expect(kept["failures"] == nil, "the missing cover's failure is forgotten too")
        let requests = try server.requests().count
        let next = try await build()
        #expect(next["up_to_date"] as? Bool == true, "the stamp holds the index --gc wrote: \(next)")
        let offline = try await build(["--offline", "--clean"])
        #expect((offline["covers"] as? [String: Any])?["failed"] as? Int == 0)
        #expect(try server.requests().count == requests)
    }

    /// A download whose bytes turn out damaged (a server that sent a cut file, framed whole) is
    /// forgotten by the cache: the next build downloads it again (a QA pass: every later build
    /// showed the placeholder and made no request, until --refresh), and an offline one in
    /// between says why the cover is missing. (A name with a space: the cache keys the address
    /// as the fetcher encodes it.)
    @Test func aDamagedDownloadIsDownloadedAgainByTheNextBuild() async throws {
        let covers = try Self.servedCovers()
        let whole = try covers.read("red.svg")
        try covers.write(String(whole.prefix(whole.count / 2)), to: "red cover.svg")
        let server = try await CoverServer(serving: covers.url)
        let site = try Fixture.site([Fixture.album("Red", "A", cover: server.url("red cover.svg"))])
        let first = try await GalleryBinary.run(["build"], in: site.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("shows a placeholder: cover '\(server.url("red cover.svg"))': the image is damaged and cannot be decoded ("), "\(first.stderr)")
        #expect(first.stderr.contains("; the next build online downloads it again: if it stays damaged, point cover_url at a good copy\n"), "\(first.stderr)")
        #expect(try server.requests().count == 1)
        let offline = try await GalleryBinary.run(["build", "--offline", "--output", "offline"], in: site.url)
        #expect(offline.stderr.contains("the image it sent is damaged and cannot be decoded"), "\(offline.stderr)")
        #expect(try server.requests().count == 1)
        try covers.write(whole, to: "red cover.svg")
        let second = try await GalleryBinary.run(["build"], in: site.url)
        #expect(second.status == 0)
        #expect(!second.stderr.contains("placeholder"), "\(second.stderr)")
        #expect(try server.requests().count == 2)
        #expect(try site.read("public/index.html").contains("placeholder") == false)
    }

    /// A cover cache that cannot take a download (a file where its folder goes) is said once,
    /// and stops the build before a request, as an unwritable cache folder does at load: it
    /// threw every download away, each album warned of with Foundation's words (a QA pass).
    /// An offline build, which writes nothing there, still runs.
    @Test func aCoverCacheThatCannotBeWrittenStopsTheBuildBeforeAnyRequest() async throws {
        let covers = try Self.servedCovers()
        let server = try await CoverServer(serving: covers.url)
        let site = try site(with: server)
        try site.write("not a folder\n", to: ".gallery-cache/covers")
        let build = try await GalleryBinary.run(["build"], in: site.url)
        #expect(build.status != 0)
        #expect(build.stderr.contains("error: the cover cache .gallery-cache/covers cannot be written (Not a directory), so the remote covers cannot be downloaded into it; make it writable, or remove it (it is made again), or name another cache with --cache DIR\n"), "\(build.stderr)")
        #expect(build.stderr.components(separatedBy: "cannot be written").count == 2, "said once: \(build.stderr)")
        #expect(try server.requests().isEmpty)
        #expect(!site.exists("public"))
        let offline = try await GalleryBinary.run(["build", "--offline"], in: site.url)
        #expect(offline.status == 0, "\(offline.stderr)")
    }

    @Test func refreshSendsConditionalRequestsAndKeepsUnchangedCovers() async throws {
        let covers = try Self.servedCovers()
        let server = try await CoverServer(serving: covers.url)
        let site = try site(with: server)
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let count = try server.requests().count
        let refresh = try await GalleryBinary.run(["build", "--refresh", "--log-format", "json"], in: site.url)
        #expect(refresh.status == 0)
        let conditional = try server.requests().dropFirst(count).filter { ($0["path"] as? String) != "/missing.svg" }
        #expect(conditional.count == 2)
        #expect(conditional.allSatisfy { ($0["if_none_match"] as? String)?.hasPrefix("\"") == true })
        #expect(refresh.stdout.contains("\"revalidated\":2"))
        // New artwork at the same address counts as downloaded, not as confirmed.
        let red = try covers.read("red.svg")
        try covers.write(red.replacingOccurrences(of: "</svg>", with: "<rect width=\"1\" height=\"1\"/></svg>"), to: "red.svg")
        let changed = try await GalleryBinary.run(["build", "--refresh", "--log-format", "json"], in: site.url)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stdout.contains("\"covers\":{\"downloaded\":1,\"from_cache\":0,\"revalidated\":1,"), "\(changed.stdout.split(separator: "\n").last ?? "")")
        // The events say the same: a CI script counting them by kind agrees with the summary.
        let kinds = changed.stdout.split(separator: "\n").filter { $0.contains("\"event\":\"cover\"") && $0.contains(server.url("red.svg")) }
        #expect(kinds.contains { $0.contains("\"kind\":\"downloaded\"") && $0.contains("\"bytes\":") }, "\(kinds)")
        #expect(!kinds.contains { $0.contains("\"kind\":\"revalidated\"") }, "\(kinds)")
    }

    /// A `--refresh` whose server no longer has a cover keeps the cached copy, and says so of
    /// the albums that show it, at the first one's place in the archive, as every cover warning.
    @Test func aCoverThatCannotBeRevalidatedIsNamedByItsAlbums() async throws {
        let covers = try Self.servedCovers()
        let server = try await CoverServer(serving: covers.url)
        let site = try Fixture.site([
            Fixture.album("Red", "A", cover: server.url("red.svg")),
            Fixture.album("Blue", "B", cover: server.url("blue.svg")),
            Fixture.album("Red Again", "C", cover: server.url("red.svg")),
        ])
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        try FileManager.default.removeItem(at: covers.url.appending(path: "red.svg"))
        let refresh = try await GalleryBinary.run(["build", "--refresh"], in: site.url)
        #expect(refresh.status == 0)
        let line = refresh.stderr.split(separator: "\n").first { $0.contains("could not revalidate") } ?? ""
        #expect(line.hasPrefix("content/albums.json:"), "\(refresh.stderr)")
        #expect(line.contains(": warning: album 1 (\"Red\" by A) and 1 more album (1, 3): cover '\(server.url("red.svg"))': could not revalidate the cached cover (HTTP 404"), "\(line)")
        #expect(try site.read("public/index.html").contains("placeholder") == false)
        let strict = try await GalleryBinary.run(["build", "--refresh", "--strict", "--output", "strict-out"], in: site.url)
        #expect(strict.status != 0)
        #expect(strict.stderr.contains("\nerror: --strict: the build has 1 warning (above), so nothing was written\n"), "\(strict.stderr)")
        #expect(!site.exists("strict-out"))
    }

    @Test func strictFailsOnACoverThatCannotBeHad() async throws {
        let covers = try Self.servedCovers()
        let server = try await CoverServer(serving: covers.url)
        let site = try site(with: server)
        let strict = try await GalleryBinary.run(["build", "--strict"], in: site.url)
        #expect(strict.status != 0)
        #expect(strict.stderr.contains("error: album 4 (\"Gone\" by D) shows a placeholder: cover '\(server.url("missing.svg"))': HTTP 404"))
        #expect(!site.exists("public"))
    }
}
