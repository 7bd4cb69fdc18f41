import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `gallery serve`, run as a user runs it, spoken to over real HTTP on a real socket.
@Suite(.serialized) struct ServeCommandTests {
    func site() throws -> TemporaryFolder {
        try Fixture.site([Fixture.album("Blue", "Joni Mitchell", year: 1971), Fixture.album("Hejira", "Joni Mitchell", year: 1976)])
    }

    /// Where `gallery serve` builds unless told otherwise.
    let preview = ".gallery-cache/preview/"

    /// The one file below the preview folder whose name ends so (assets are fingerprinted).
    func output(_ folder: TemporaryFolder, endingWith suffix: String) throws -> String {
        try #require(folder.files(under: preview).first { $0.hasSuffix(suffix) })
    }

    @Test func servesPagesAndFilesWithTheirTypesETagsAndThe404Page() async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url)
        #expect(server.url == "http://127.0.0.1:\(server.port)/")

        let index = try await RawResponse.get("/", port: server.port)
        #expect(index.status == 200)
        #expect(index.headers["content-type"] == "text/html; charset=utf-8")
        #expect(index.body.contains("Hejira"))
        // The reload script is in the page served, never in the file written.
        #expect(index.body.contains("<script id=\"gallery-serve-reload\" src=\"/__gallery/reload.js\""))
        #expect(try !folder.read(preview + "index.html").contains("__gallery"))
        #expect(!folder.exists("public"), "the preview never writes the published output")
        #expect(folder.files(under: preview).allSatisfy { (try? folder.read(preview + $0).contains("__gallery")) != true })

        let types = [
            (try output(folder, endingWith: ".css"), "text/css; charset=utf-8"),
            (try output(folder, endingWith: ".js"), "text/javascript; charset=utf-8"),
            ("carousel.svg", "image/svg+xml"),
            ("albums.json", "application/json"),
            ("sitemap.xml", "application/xml"),
        ]
        for (path, type) in types {
            let response = try await RawResponse.get("/" + path, port: server.port)
            #expect(response.status == 200, "\(path)")
            #expect(response.headers["content-type"] == type, "\(path)")
            #expect(response.body == (try folder.read(preview + path)), "\(path) is served as written")
        }

        let tag = try #require(index.headers["etag"])
        let again = try await RawResponse.get("/", port: server.port, headers: ["If-None-Match": tag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(try await RawResponse.get("/", port: server.port, headers: ["If-None-Match": "\"other\""]).status == 200)

        let missing = try await RawResponse.get("/no/such/page.html", port: server.port)
        #expect(missing.status == 404)
        let notFoundPage = try folder.read(preview + "404.html")
        let bodyEnd = try #require(notFoundPage.range(of: "</body>"))
        #expect(missing.body.hasPrefix(String(notFoundPage[..<bodyEnd.lowerBound])))

        let album = try #require(folder.files(under: preview).first { $0.hasPrefix("albums/") && $0.hasSuffix("/index.html") })
        let albumFolder = "/" + album.dropLast("/index.html".count)
        let redirect = try await RawResponse.get(albumFolder, port: server.port)
        #expect(redirect.status == 302)
        #expect(redirect.headers["location"] == albumFolder + "/")
        #expect(try await RawResponse.get(albumFolder + "/", port: server.port).status == 200)
        #expect(try await RawResponse.get("/", port: server.port, method: "POST").status == 405)
        // The redirect keeps the query, and a doubled slash is the home page.
        #expect(try await RawResponse.get(albumFolder + "?from=mail&x=1", port: server.port).headers["location"] == albumFolder + "/?from=mail&x=1")
        for path in ["//", "///", "//?a=1"] {
            let home = try await RawResponse.get(path, port: server.port)
            #expect(home.status == 302, "\(path) gave \(home.status)")
            #expect(home.headers["location"] == (path.contains("?") ? "/?a=1" : "/"), "\(path)")
        }
    }

    /// The files a site's static/ folder carries for its host or its visitors get their types.
    @Test func staticFilesGetTheirTypes() async throws {
        let folder = try site()
        let files = [("CNAME", "text/plain; charset=utf-8"), ("press.pdf", "application/pdf"), ("track.mp3", "audio/mpeg"),
                     ("font.ttf", "font/ttf"), ("albums.csv", "text/csv; charset=utf-8"), ("notes.md", "text/markdown; charset=utf-8")]
        for (name, _) in files { try folder.write("x", to: "static/" + name) }
        let server = try await ServeProcess(in: folder.url)
        for (name, type) in files {
            let response = try await RawResponse.get("/" + name, port: server.port)
            #expect(response.status == 200, "\(name)")
            #expect(response.headers["content-type"] == type, "\(name)")
        }
    }

    @Test func refusesEveryWayOutOfTheOutputFolder() async throws {
        let folder = try site()
        try folder.write("top secret", to: "secret.txt")
        let server = try await ServeProcess(in: folder.url)
        let files = FileManager.default
        try files.createSymbolicLink(atPath: folder.url.appending(path: preview + "leak.txt").path, withDestinationPath: "../secret.txt")
        try files.createSymbolicLink(atPath: folder.url.appending(path: preview + "site").path, withDestinationPath: folder.url.path)
        let attempts = [
            "/../secret.txt", "/../../../../../etc/passwd", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt",
            "/%2e%2e%2fsecret.txt", "/..%2fsecret.txt", "/albums/..%2f..%2fsecret.txt", "/..%5csecret.txt",
            "/..\\secret.txt", "/%252e%252e/secret.txt", "//etc/passwd", "/secret.txt%00.html",
            "/leak.txt", "/site/secret.txt", "/site/content/albums.json",
        ]
        for path in attempts {
            let response = try await RawResponse.get(path, port: server.port)
            #expect([403, 404].contains(response.status), "\(path) gave \(response.status)")
            #expect(!response.body.contains("top secret") && !response.body.contains("root:"), "\(path) leaked")
        }
    }

    /// A page elsewhere cannot read the preview: not by DNS rebinding (its own name for
    /// 127.0.0.1 in `Host`), nor through the live-reload socket (its own `Origin`).
    @Test func answersOnlyToLoopbackNamesAndItsOwnPages() async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url)
        for host in ["localhost:\(server.port)", "127.0.0.1:\(server.port)", "[::1]:\(server.port)", "LOCALHOST", "app.localhost:\(server.port)"] {
            #expect(try await RawResponse.get("/", port: server.port, host: host).status == 200, "\(host)")
        }
        for host in ["attacker.example:\(server.port)", "127.0.0.1.nip.io:\(server.port)", "192.168.1.9", "localhost.attacker.example"] {
            let response = try await RawResponse.get("/", port: server.port, host: host)
            #expect(response.status == 403, "\(host)")
            #expect(response.body.hasPrefix("This preview answers only to localhost: this request named '\(host)'."), "\(response.body)")
        }
        let upgrade = ["Upgrade": "websocket", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13"]
        for (origin, opens) in [("http://127.0.0.1:\(server.port)", true), ("http://attacker.example", false), ("http://127.0.0.1:9", false), ("null", false)] {
            let connection = try RawHTTPConnection(port: server.port)
            connection.send("GET", "/__gallery/live", headers: upgrade.merging(["Origin": origin]) { $1 }, connection: "Upgrade", host: "127.0.0.1:\(server.port)")
            try await connection.read(timeout: 20) { $0.contains("\r\n\r\n") }
            let status = try RawResponse.parse(connection.received).status
            #expect((status == 101) == opens, "\(origin): \(status)")
        }
    }

    /// With the kernel's file events (the default) and with `--poll`.
    @Test(arguments: [[], ["--poll", "100ms"]])
    func reloadsOnChangeShowsAFailedRebuildAndRecovers(watching: [String]) async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url, arguments: watching)
        let socket = try await RawWebSocket(port: server.port)
        #expect(socket.response.headers["upgrade"]?.lowercased() == "websocket")
        #expect(try await RawResponse.get("/__gallery/live", port: server.port).status == 426, "a plain GET is told to upgrade")
        // On connecting, the page is told which build is served: the one its script names.
        let first = try #require(try await socket.waitForMessage { _ in true })
        let build = try #require(Self.build(in: first))
        #expect(first == "{\"build\":\"\(build)\",\"errors\":null}")
        #expect(try await RawResponse.get("/", port: server.port).body.contains("src=\"/__gallery/reload.js\" data-build=\"\(build)\""))
        let script = try await RawResponse.get("/__gallery/reload.js", port: server.port)
        #expect(script.status == 200 && script.body.contains("/__gallery/live"))

        // A good edit: rebuilt, the page says so, and the open page is told of a new build.
        try folder.write(Fixture.archive([Fixture.album("Court and Spark", "Joni Mitchell", year: 1974)]), to: "content/albums.json")
        let rebuilt = try await socket.waitForMessage { Self.build(in: $0) != build }
        #expect(rebuilt?.hasSuffix(",\"errors\":null}") == true, "no new build; stderr: \(server.stderr.value)")
        #expect(try await RawResponse.get("/", port: server.port).body.contains("Court and Spark"))
        let goodBuild = try #require(rebuilt.flatMap(Self.build(in:)))

        // A broken archive: the diagnostics, with the last good build, the terminal says it, the
        // pages carry the overlay, and the last good site is still served.
        try folder.write("{\"version\": 1, \"albums\": [\n  {\"title\": \"Unfinished\"\n", to: "content/albums.json")
        let error = try await socket.waitForMessage { $0.contains("\"errors\":[") }
        #expect(error?.contains("content/albums.json") == true, "no error message; stderr: \(server.stderr.value)")
        #expect(error.flatMap(Self.build(in:)) == goodBuild)
        #expect(server.stderr.value.contains("content/albums.json"))
        let broken = try await RawResponse.get("/", port: server.port)
        #expect(broken.status == 200)
        #expect(broken.body.contains("<div id=\"gallery-serve-overlay\""))
        #expect(broken.body.contains("content/albums.json"))
        #expect(broken.body.contains("Court and Spark"))
        // A page opened now is told of the failure at once.
        #expect(try await RawWebSocket(port: server.port).waitForMessage { $0.contains("\"errors\":[") } != nil)

        // Fixed: a new build, and the overlay is gone.
        let before = socket.messages.texts.count
        try folder.write(Fixture.archive([Fixture.album("Ladies of the Canyon", "Joni Mitchell", year: 1970)]), to: "content/albums.json")
        let fixedMessage = try await socket.waitForMessage(after: before) { $0.hasSuffix(",\"errors\":null}") }
        #expect(fixedMessage.flatMap(Self.build(in:)) != goodBuild, "no new build after the fix; stderr: \(server.stderr.value)")
        let fixed = try await RawResponse.get("/", port: server.port)
        #expect(fixed.body.contains("Ladies of the Canyon"))
        #expect(!fixed.body.contains("<div id=\"gallery-serve-overlay\""))
    }

    /// What the build reads from beyond the watched folders is watched too: an archive that is
    /// a symbolic link to a catalogue several sites share, a cover in a folder outside
    /// `content/`, and one in a folder linked into it. An edit of any of them used to leave the
    /// preview stale, with file events and with `--poll` alike.
    @Test(arguments: [[], ["--poll", "100ms"]])
    func rebuildsWhenALinkedArchiveOrACoverOutsideContentChanges(watching: [String]) async throws {
        let folder = try site()
        try folder.write(Fixture.archive([
            Fixture.album("Blue", "Joni Mitchell", year: 1971, cover: "../artwork/blue.svg"),
            Fixture.album("Hejira", "Joni Mitchell", year: 1976, cover: "linked/hejira.svg"),
        ]), to: "shared/albums.json")
        try FileManager.default.removeItem(at: folder.url.appending(path: "content/albums.json"))
        try FileManager.default.createSymbolicLink(atPath: folder.url.appending(path: "content/albums.json").path, withDestinationPath: "../shared/albums.json")
        try folder.write(Fixture.cover, to: "artwork/blue.svg")
        try folder.write(Fixture.cover, to: "elsewhere/hejira.svg")
        try FileManager.default.createSymbolicLink(atPath: folder.url.appending(path: "content/linked").path, withDestinationPath: "../elsewhere")
        // A static file that is a link to a theme's file elsewhere in the site.
        try folder.write("first theme\n", to: "theme/note.txt")
        try FileManager.default.createDirectory(at: folder.url.appending(path: "static"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.url.appending(path: "static/note.txt").path, withDestinationPath: "../theme/note.txt")
        let server = try await ServeProcess(in: folder.url, arguments: watching)
        let socket = try await RawWebSocket(port: server.port)
        var build = try #require(try await socket.waitForMessage { _ in true }.flatMap(Self.build(in:)))
        /// Waits for the next build after a change, and returns its id.
        func rebuilt(after change: String, skipping: Int) async throws -> String? {
            let next = try await socket.waitForMessage(after: skipping, timeout: 60) { Self.build(in: $0).map { $0 != build } ?? false }
            #expect(next != nil, "no rebuild after \(change); stderr: \(server.stderr.value)")
            return next.flatMap(Self.build(in:))
        }

        try folder.write(Fixture.archive([Fixture.album("Court and Spark", "Joni Mitchell", year: 1974, cover: "../artwork/blue.svg")]), to: "shared/albums.json")
        build = try #require(try await rebuilt(after: "an edit of the linked archive", skipping: socket.messages.texts.count))
        #expect(try await RawResponse.get("/", port: server.port).body.contains("Court and Spark"))
        // The rebuild's line names the file as the build reads it.
        #expect(server.stderr.value.contains("(content/albums.json changed)\n"), "\(server.stderr.value)")
        try folder.write(Fixture.cover.replacingOccurrences(of: "#c33", with: "#3c3"), to: "artwork/blue.svg")
        build = try #require(try await rebuilt(after: "a new cover outside content/", skipping: socket.messages.texts.count))
        #expect(server.stderr.value.contains("(artwork/blue.svg changed)\n"), "\(server.stderr.value)")
        try folder.write(Fixture.archive([Fixture.album("Hejira", "Joni Mitchell", year: 1976, cover: "linked/hejira.svg")]), to: "shared/albums.json")
        build = try #require(try await rebuilt(after: "the archive naming the linked cover", skipping: socket.messages.texts.count))
        try folder.write(Fixture.cover.replacingOccurrences(of: "#c33", with: "#33c"), to: "elsewhere/hejira.svg")
        build = try #require(try await rebuilt(after: "a new cover in a folder linked into content/", skipping: socket.messages.texts.count))
        try folder.write("second theme, edited\n", to: "theme/note.txt")
        build = try #require(try await rebuilt(after: "an edit of the file a linked static file leads to", skipping: socket.messages.texts.count))
        #expect(try await RawResponse.get("/note.txt", port: server.port).body == "second theme, edited\n")
        // The preview is what a build makes of the same files.
        let page = try await RawResponse.get("/albums/joni-mitchell-hejira/", port: server.port).body
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let built = try folder.read("public/albums/joni-mitchell-hejira/index.html")
        let cover = { (html: String) in html.components(separatedBy: "class=\"cover\" src=\"").dropFirst().first?.prefix { $0 != "\"" } }
        #expect(cover(page) != nil && cover(page) == cover(built), "\(String(describing: cover(page))) \(String(describing: cover(built)))")
    }

    /// The build id in a live-reload message.
    static func build(in message: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any] else { return nil }
        return object["build"] as? String
    }

    /// --quiet prints only warnings and errors, as the README says: not "Ctrl-C stops it" nor
    /// "stopping"; without it both are said.
    @Test func quietLeavesOutTheServersStatusLines() async throws {
        let folder = try site()
        for quiet in [true, false] {
            let server = try await ServeProcess(in: folder.url, arguments: quiet ? ["-q"] : [])
            _ = try await RawWebSocket(port: server.port).waitForMessage { _ in true }
            server.signal(SIGINT)
            #expect(await server.waitForExit() == 0)
            let said = server.stderr.value
            #expect(said.contains("serve: Ctrl-C stops it") != quiet && said.contains("serve: stopping") != quiet, "quiet \(quiet): \(said)")
            // The address is said before the first build begins (the port was unknown until it
            // ended, with --port 0 or a long first build).
            let listening = said.range(of: "serve: listening on http://127.0.0.1:\(server.port)/; building the site first")
            #expect((listening != nil) != quiet, "quiet \(quiet): \(said)")
            if !quiet {
                let load = said.range(of: "[1/7] load")
                #expect(listening.map { start in load.map { start.lowerBound < $0.lowerBound } ?? false } == true, "said before the first build: \(said)")
            }
            #expect(server.stdout.value.hasPrefix("Serving http://127.0.0.1:"), "the address is said either way")
        }
    }

    /// A page left open while the server was down reloads only if the site changed meanwhile: the
    /// build id comes from the output, so a restarted server names an unchanged site alike.
    @Test func theBuildIdNamesTheSameSiteAlikeAcrossRestarts() async throws {
        let folder = try site()
        var server = try await ServeProcess(in: folder.url)
        let first = try await RawWebSocket(port: server.port).waitForMessage { _ in true }.flatMap(Self.build(in:))
        #expect(first != nil)
        server.signal(SIGINT)
        #expect(await server.waitForExit() == 0)
        server = try await ServeProcess(in: folder.url)
        #expect(try await RawWebSocket(port: server.port).waitForMessage { _ in true }.flatMap(Self.build(in:)) == first)
        server.signal(SIGINT)
        #expect(await server.waitForExit() == 0)
        try folder.write(Fixture.archive([Fixture.album("Blue", "Joni Mitchell", year: 1972)]), to: "content/albums.json")
        server = try await ServeProcess(in: folder.url)
        let changed = try await RawWebSocket(port: server.port).waitForMessage { _ in true }.flatMap(Self.build(in:))
        #expect(changed != nil && changed != first)
    }

    /// A `gallery serve` of a 4,000-album site, whose first build takes a while; how to stop it
    /// while that build renders, and how to read what it printed. Killed, if still running,
    /// when let go.
    final class ServerInItsFirstBuild {
        let process = Process()
        /// The site, removed when this is let go.
        let folder: TemporaryFolder
        let output: URL
        let errors: URL

        init() async throws {
            folder = try Fixture.site((0..<4000).map { Fixture.album("Album \($0)", "Artist \($0 % 40)") })
            output = folder.url.appending(path: "serve-stdout")
            errors = folder.url.appending(path: "serve-stderr")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.executableURL = GalleryBinary.url
            process.arguments = ["serve", "--port", "0"]
            process.currentDirectoryURL = folder.url
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
        }

        deinit { if process.isRunning { process.terminate() } }

        /// Sends Ctrl-C once rendering has begun, and a second one 100 ms later when asked, on a
        /// thread of its own: a task on the test run's shared threads, which other tests block
        /// for seconds, could wake after the build had ended. Expects the build under way at each.
        func interrupt(twice: Bool = false) async {
            let (process, output, errors) = (process, output, errors)
            let inFirstBuild = await withCheckedContinuation { continuation in
                Thread {
                    let text = { (url: URL) in (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
                    let deadline = Date().addingTimeInterval(60)
                    while Date() < deadline, process.isRunning, !text(errors).contains("render") { usleep(1000) }
                    var building = process.isRunning && !text(output).contains("Serving")
                    kill(process.processIdentifier, SIGINT)
                    if twice {
                        usleep(100_000)
                        building = building && process.isRunning && !text(output).contains("Serving")
                        kill(process.processIdentifier, SIGINT)
                    }
                    continuation.resume(returning: building)
                }.start()
            }
            #expect(inFirstBuild, "the first build ended before Ctrl-C; the test needs a slower build")
        }

        var stdout: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

        /// Waits (at most a minute) for the server to exit.
        func waitForExit() async throws {
            let exited = Date().addingTimeInterval(60)
            while process.isRunning, Date() < exited { try await Task.sleep(for: .milliseconds(20)) }
            #expect(!process.isRunning)
        }
    }

    /// Ctrl-C while the first build renders: the server says it is stopping, and then does not
    /// announce an address it is no longer going to serve.
    @Test func ctrlCDuringTheFirstBuildAnnouncesNoAddress() async throws {
        let server = try await ServerInItsFirstBuild()
        await server.interrupt()
        try await server.waitForExit()
        #expect(server.process.terminationStatus == 0)
        #expect(server.stderr.contains("serve: stopping"), "\(server.stderr)")
        #expect(!server.stdout.contains("Serving"), "\(server.stdout)")
    }

    /// Ctrl-C waits for a rebuild under way, which takes seconds on a big site; Ctrl-C again
    /// stopped nothing sooner. Now a second one stops the server at once, with status 130.
    @Test func aSecondCtrlCStopsAtOnce() async throws {
        let server = try await ServerInItsFirstBuild()
        await server.interrupt(twice: true)
        try await server.waitForExit()
        #expect(server.process.terminationStatus == 130, "\(server.stderr)")
        #expect(server.stderr.contains("serve: stopped at once, without waiting for the rebuild under way\n"), "\(server.stderr)")
        #expect(!server.stderr.contains("[7/7] write") && !server.stdout.contains("Serving"), "the build was waited for: \(server.stderr)")
    }

    /// A site folder renamed under the server took its preview with it: every page was a 404
    /// while the terminal said the last good build was still served. It says what happened and
    /// what to do instead.
    @Test func aSiteFolderMovedAwayIsSaidSo() async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url)
        let moved = folder.url.deletingLastPathComponent().appending(path: folder.url.lastPathComponent + "-moved")
        try FileManager.default.moveItem(at: folder.url, to: moved)
        defer { try? FileManager.default.moveItem(at: moved, to: folder.url) }
        let deadline = Date().addingTimeInterval(60)
        while !server.stderr.value.contains("is gone (moved or deleted?)"), Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(server.stderr.value.contains("is gone (moved or deleted?), and with it the last good build; move it back to go on, or stop this server (Ctrl-C) and start gallery serve where the site is now\n"), "\(server.stderr.value)")
        #expect(!server.stderr.value.contains("still serving the last good build"), "\(server.stderr.value)")
        // Edited where it went, then moved back: built again without a save, the error gone.
        // (The pages kept the error, and the edit was not served, until the next save.)
        try Fixture.archive([Fixture.album("Blue", "Joni Mitchell", year: 1971)]).write(to: moved.appending(path: "content/albums.json"), atomically: true, encoding: .utf8)
        // The edit's rebuild fails too, while the folder is away; not moved back before it has.
        let edited = Date().addingTimeInterval(60)
        while server.stderr.value.components(separatedBy: "is gone (moved or deleted?)").count < 3, Date() < edited {
            try await Task.sleep(for: .milliseconds(100))
        }
        try #require(server.stderr.value.components(separatedBy: "is gone (moved or deleted?)").count >= 3, "\(server.stderr.value)")
        try FileManager.default.moveItem(at: moved, to: folder.url)
        let back = Date().addingTimeInterval(60)
        var page = try await RawResponse.get("/", port: server.port)
        while !page.body.contains("Blue") || page.body.contains("gallery-serve-overlay"), Date() < back {
            try await Task.sleep(for: .milliseconds(200))
            page = try await RawResponse.get("/", port: server.port)
        }
        #expect(server.stderr.value.contains("is back; building it again\n"), "\(server.stderr.value)")
        #expect(page.body.contains("Blue") && !page.body.contains("gallery-serve-overlay"), "\(page.body.prefix(400))")
    }

    /// A request the HTTP parser rejects (headers over 80 KB, as a large cookie another app set
    /// for localhost makes them; a method it does not know; bytes that are not HTTP) got no
    /// answer at all, and its connection stayed open: the browser spun without a word. It gets
    /// 431 or 400, the connection is closed, and the terminal shows no error for it.
    @Test func aRequestTooLargeOrNotHTTPIsAnsweredAndClosed() async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url)
        let cookie = String(repeating: "a", count: 90_000)
        for (request, status) in [
            ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(cookie)\r\n\r\n", 431),
            ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + (0..<1100).map { "X-\($0): 1\r\n" }.joined() + "\r\n", 431),
            ("FOO / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400),
            ("garbage\r\n\r\n", 400),
        ] {
            let connection = try RawHTTPConnection(port: server.port)
            connection.sendRaw(request)
            let start = Date()
            // Until the server closes: the condition never holds. Past 40 s, it was kept (an
            // idle connection is closed after 60 s); long, for a loaded machine.
            try await connection.read(timeout: 50) { _ in false }
            #expect(connection.received.hasPrefix("HTTP/1.1 \(status) "), "\(connection.received.prefix(300))")
            #expect(connection.received.contains("Connection: close\r\n"))
            if status == 431 { #expect(connection.received.contains("(80 KB, or 1,000 header lines)"), "\(connection.received.prefix(400))") }
            #expect(Date().timeIntervalSince(start) < 40, "the connection was not closed")
        }
        #expect(try await RawResponse.get("/", port: server.port, host: "127.0.0.1:\(server.port)").status == 200)
        #expect(!(server.stdout.value + server.stderr.value).contains("error"), "\(server.stdout.value)\(server.stderr.value)")
    }

    /// Ctrl-C stops the server even while a client holds a connection that never sent a whole
    /// request (a browser's speculative connection; a client that stopped half-way): after a
    /// short wait it is closed, and the server exits with status 0. It used to wait for the
    /// client for ever, not listening any more but not gone, deaf to a second Ctrl-C.
    @Test func ctrlCStopsTheServerThoughAConnectionNeverSentARequest() async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url)
        let idle = try RawHTTPConnection(port: server.port)
        let halfSent = try RawHTTPConnection(port: server.port)
        halfSent.sendRaw("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        try await Task.sleep(for: .milliseconds(300))
        let start = Date()
        server.signal(SIGINT)
        // Long, for a loaded machine: the server used to wait for ever.
        #expect(await server.waitForExit(timeout: 60) == 0)
        #expect(Date().timeIntervalSince(start) < 40)
        #expect(server.stderr.value.contains("serve: stopping\n"), "\(server.stderr.value)")
        withExtendedLifetime((idle, halfSent)) {}
    }

    /// A connection that sent nothing, one that stopped half-way through its headers, and one
    /// left open after its answer were all kept for good: each holds a file descriptor of the
    /// server's, and with `--host` a network's worth of them could stop it accepting. They are
    /// closed after `--idle-timeout`; the pages' live-reload socket, idle between rebuilds,
    /// is not.
    @Test func connectionsThatSendNoRequestAreClosedButTheLiveReloadSocketIsNot() async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url, arguments: ["--idle-timeout", "1s"])
        let reload = try await RawWebSocket(port: server.port)
        let first = try #require(try await reload.waitForMessage { _ in true }.flatMap(Self.build(in:)))
        let silent = try RawHTTPConnection(port: server.port)
        let halfSent = try RawHTTPConnection(port: server.port)
        halfSent.sendRaw("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        let answered = try RawHTTPConnection(port: server.port)
        answered.sendRaw("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let start = Date()
        for connection in [silent, halfSent, answered] {
            // Until the server closes: the condition never holds.
            try await connection.read(timeout: 50) { _ in false }
        }
        // After a 1 s timeout; long, for a loaded machine (each read gives up after 50 s).
        #expect(Date().timeIntervalSince(start) < 40, "the connections were not closed")
        #expect(silent.received.isEmpty && halfSent.received.isEmpty, "\(halfSent.received.prefix(200))")
        #expect(answered.received.hasPrefix("HTTP/1.1 200 "), "\(answered.received.prefix(200))")
        // Well past the timeout, the page's socket still hears of a rebuild.
        try await Task.sleep(for: .seconds(2))
        try folder.write(Fixture.archive([Fixture.album("Court and Spark", "Joni Mitchell", year: 1974)]), to: "content/albums.json")
        let rebuilt = try await reload.waitForMessage(timeout: 30) { Self.build(in: $0).map { $0 != first } ?? false }
        #expect(rebuilt != nil, "the live-reload socket was closed: \(server.stderr.value)")
    }

    @Test(arguments: [("--poll", "700ms or 2s"), ("--idle-timeout", "500ms or 60s")], ["5ms", "fast", "2", "0s", "1h"])
    func anIntervalThatIsNotOneIsRefused(option: (name: String, example: String), interval: String) async throws {
        let folder = try site()
        let run = try await GalleryBinary.run(["serve", "--port", "0", option.name, interval], in: folder.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("\(option.name) needs an interval from 10ms to 3600s, in milliseconds or seconds (such as \(option.example)); '\(interval)' is not one."), "\(run.stderr)")
    }

    @Test func aFolderThatIsNoSiteIsRefusedAtOnce() async throws {
        let folder = try TemporaryFolder()
        let error = await #expect(throws: ServeProcess.Failure.self) { try await ServeProcess(in: folder.url, timeout: 60) }
        #expect(error?.description.contains("content/albums.json: error: there is no album archive here; run `gallery init DIR`") == true, "\(String(describing: error))")
    }

    /// An --output that would overwrite the site's own files is refused at once, as build
    /// refuses it: no save can fix a command-line option, so serving an error page until
    /// Ctrl-C helped nobody.
    @Test(arguments: ["templates", "content", "."])
    func anOutputFolderThatWouldOverwriteTheSiteIsRefusedAtOnce(output: String) async throws {
        let folder = try Fixture.site([Fixture.album("Blue", "Joni Mitchell")])
        try folder.write("{{>partials/head}}\n", to: "templates/extra.mustache")
        let error = await #expect(throws: ServeProcess.Failure.self) { try await ServeProcess(in: folder.url, arguments: ["--output", output], timeout: 60) }
        #expect(error?.description.contains("preview the site in another folder with --output") == true, "\(String(describing: error))")
        #expect(!folder.exists("templates/index.html") && !folder.exists("content/index.html") && !folder.exists("index.html"))
    }

    @Test func aFirstBuildThatFailsDoesNotClaimAGoodOneIsServed() async throws {
        let folder = try site()
        try folder.write("{\"version\": 1, \"albums\": [\n", to: "content/albums.json")
        let server = try await ServeProcess(in: folder.url)
        let page = try await RawResponse.get("/", port: server.port)
        #expect(page.body.contains("gallery-serve-overlay"))
        #expect(page.body.contains("<p>gallery serve: the site could not be built yet; it is shown here once a save fixes this.</p>"))
        #expect(!page.body.contains("<p>gallery serve: the last rebuild failed"))
        // The fallback page is readable on a phone.
        #expect(page.body.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"))
        #expect(server.stderr.value.contains("serve: the pages show this error until a save fixes it"), "\(server.stderr.value)")
        #expect(!server.stderr.value.contains("last good build"))
    }

    /// A first build that fails after reading `base_url` (a broken template or archive) announces
    /// the site at its path; one that failed before it read it (a broken gallery.toml) announced
    /// it without, so the first good build says where it is.
    @Test func theAddressAnnouncedAfterAFailedFirstBuildHasTheSitesPath() async throws {
        let folder = try site()
        try folder.write("base_url = \"/label/\"\n", to: "gallery.toml")
        try folder.write("{\"version\": 1, \"albums\": [\n", to: "content/albums.json")
        let server = try await ServeProcess(in: folder.url)
        let socket = try await RawWebSocket(port: server.port)
        _ = try await socket.waitForMessage { $0.contains("\"errors\":[") }
        #expect(server.stdout.value.contains("Serving http://127.0.0.1:\(server.port)/label/\n"), "\(server.stdout.value)")
        try folder.write(Fixture.archive([Fixture.album("Blue", "Joni Mitchell", year: 1971)]), to: "content/albums.json")
        #expect(try await socket.waitForMessage { $0.hasSuffix(",\"errors\":null}") } != nil, "\(server.stderr.value)")
        #expect(!server.stderr.value.contains("serve: the site is at"), "said twice: \(server.stderr.value)")

        let broken = try site()
        try broken.write("base_url = \"/label/\"\n[carousel\n", to: "gallery.toml")
        let second = try await ServeProcess(in: broken.url)
        let listener = try await RawWebSocket(port: second.port)
        _ = try await listener.waitForMessage { $0.contains("\"errors\":[") }
        #expect(second.stdout.value.contains("Serving http://127.0.0.1:\(second.port)/\n"), "\(second.stdout.value)")
        try broken.write("base_url = \"/label/\"\n", to: "gallery.toml")
        #expect(try await listener.waitForMessage { $0.hasSuffix(",\"errors\":null}") } != nil, "\(second.stderr.value)")
        #expect(second.stderr.value.contains("serve: the site is at http://127.0.0.1:\(second.port)/label/\n"), "\(second.stderr.value)")
    }

    @Test func aPortInUseIsAnErrorWhenAskedForAndAvoidedWhenItIsTheDefault() async throws {
        let folder = try site()
        let first = try await ServeProcess(in: folder.url)
        // Found before anything is built: the second site's preview folder is never made.
        let other = try site()
        let run = try await GalleryBinary.run(["serve", "--port", "\(first.port)"], in: other.url)
        #expect(run.status == 1)
        #expect(run.stderr == "serve: error: port \(first.port) on 127.0.0.1 is in use by another program (another gallery serve or hugo server?); pass another with --port N, or --port 0 for any free one\n", "\(run.stderr)")
        #expect(!other.exists(preview), "it built before finding the port taken")

        // The default port, 1313, held here (or by anything else on this machine) is skipped.
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(1313).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        _ = listen(holder, 1)
        let second = try await ServeProcess(in: folder.url, port: nil)
        #expect(second.port != 1313 && second.port > 0)
        #expect(second.stderr.value.contains("serve: port 1313 is in use; serving on a free port instead"), "\(second.stderr.value)")
        #expect(try await RawResponse.get("/", port: second.port).body.contains("Hejira"))
    }

    /// A `--host` it cannot listen on fails at once, in one line that says what to do, before
    /// anything is built and without claiming to listen.
    @Test(arguments: [
        ("no-such-host.invalid", "serve: error: --host 'no-such-host.invalid' is no address and no name this machine can resolve; pass an address such as 127.0.0.1, ::1 or 0.0.0.0, or a name such as localhost\n"),
        // TEST-NET-1: an address of no interface here (binding it sends nothing anywhere).
        ("192.0.2.1", "serve: error: 192.0.2.1 is not an address of this machine, so nothing can be served on it; pass one of its own addresses, 127.0.0.1 for this machine only, or 0.0.0.0 for every interface\n"),
    ])
    func aHostItCannotListenOnFailsBeforeBuilding(host: String, message: String) async throws {
        let folder = try site()
        let start = Date()
        let run = try await GalleryBinary.run(["serve", "--port", "0", "--host", host], in: folder.url)
        #expect(run.status == 1)
        #expect(run.stderr == message, "\(run.stderr)")
        #expect(run.stdout.isEmpty, "\(run.stdout)")
        #expect(!folder.exists(preview), "it built before finding it could not listen")
        // It does not hang on the name; long, for a loaded machine.
        #expect(Date().timeIntervalSince(start) < 60)
    }

    @Test func aBracketedIPv6HostIsServedThere() async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url, arguments: ["--host", "[::1]"])
        #expect(server.url == "http://[::1]:\(server.port)/")
        #expect(!server.stderr.value.contains("anyone who can reach"), "::1 is loopback")
        // Nothing listens on 127.0.0.1 at that port: the server is on ::1 only.
        await #expect(throws: (any Error).self) { try await RawResponse.get("/", port: server.port) }
    }

    /// Every interface: the URL printed is one a browser can open, and the warning says what it
    /// means, once the server listens.
    @Test func allInterfacesAreAnnouncedAsLocalhostWithAWarning() async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url, arguments: ["--host", "0.0.0.0"])
        #expect(server.url == "http://localhost:\(server.port)/")
        #expect(server.stderr.value.contains("serve: listening on all interfaces (0.0.0.0): anyone who can reach this machine can see the site"), "\(server.stderr.value)")
        #expect(try await RawResponse.get("/", port: server.port).body.contains("Hejira"))
    }

    /// A rebuild prints only the warnings that are new, counts the others in one line, and no
    /// thumbnail progress when every thumbnail came from the cache.
    @Test func aRebuildPrintsOnlyNewWarnings() async throws {
        let albums = [Fixture.album("Blue", "Joni Mitchell"), Fixture.album("Hejira", "Joni Mitchell")]
            + (1...3).map { Fixture.album("Lost \($0)", "Nobody", cover: "covers/lost-\($0).svg") }
        let folder = try Fixture.site(albums)
        let server = try await ServeProcess(in: folder.url)
        func lines(_ text: String) -> [Substring] { server.stderr.value.split(separator: "\n").filter { $0.contains(text) } }
        #expect(lines("warning:").count == 3, "\(server.stderr.value)")
        #expect(lines("thumbnails: 1/1").count == 1, "\(server.stderr.value)")

        try folder.write(Fixture.archive(albums + [Fixture.album("Lost 4", "Nobody", cover: "covers/lost-4.svg")]), to: "content/albums.json")
        let deadline = Date().addingTimeInterval(30)
        while lines("built ").count < 2, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(lines("built ").count == 2, "no rebuild: \(server.stderr.value)")
        let warnings = lines("warning:")
        #expect(warnings.count == 4, "\(server.stderr.value)")
        #expect(warnings.last?.contains("lost-4.svg") == true, "\(server.stderr.value)")
        #expect(lines("3 warnings as before").count == 1, "\(server.stderr.value)")
        #expect(lines("thumbnails:").count == 1, "the cached thumbnail is not counted again: \(server.stderr.value)")
        // The first build shows its steps; a rebuild is one line with the time of day.
        #expect(lines("[1/7] load").count == 1, "\(server.stderr.value)")
        #expect(lines("serve: rebuilding at ").count == 1, "\(server.stderr.value)")
        // It names the file that changed, as the site folder's own path (the server runs in it).
        #expect(server.stderr.value.range(of: #"serve: rebuilding at [0-2][0-9]:[0-5][0-9]:[0-5][0-9] \(content/albums.json changed\)\n"#, options: .regularExpression) != nil, "\(server.stderr.value)")
        #expect(lines("serve: Ctrl-C stops it").count == 1, "\(server.stderr.value)")
    }

    /// A new `base_url` moves the site while it is served: the terminal says where to, and a page
    /// open at an address of the old base path is sent to the same page under the new one.
    @Test func aNewBasePathIsAnnouncedAndOldAddressesRedirect() async throws {
        let folder = try Fixture.site([Fixture.album("Blue", "Joni Mitchell", slug: "blue")])
        let server = try await ServeProcess(in: folder.url)
        #expect(try await RawResponse.get("/albums/blue/", port: server.port).status == 200)

        try folder.write("base_url = \"https://example.org/sub/\"\n", to: "gallery.toml")
        let announced = "serve: the site is now at http://127.0.0.1:\(server.port)/sub/"
        let deadline = Date().addingTimeInterval(30)
        while !server.stderr.value.contains(announced), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(server.stderr.value.contains(announced), "\(server.stderr.value)")
        let moved = try await RawResponse.get("/albums/blue/", port: server.port)
        #expect(moved.status == 302)
        #expect(moved.headers["location"] == "/sub/albums/blue/")
        #expect(try await RawResponse.get("/sub/albums/blue/", port: server.port).status == 200)
        #expect(try await RawResponse.get("/no/such/page/", port: server.port).status == 404, "only what exists is redirected")

        // And back: an address under the former base path goes to the page at the root.
        try folder.write("base_url = \"/\"\n", to: "gallery.toml")
        let back = "serve: the site is now at http://127.0.0.1:\(server.port)/\n"
        while !server.stderr.value.contains(back), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let home = try await RawResponse.get("/sub/albums/blue/", port: server.port)
        #expect(home.status == 302, "\(server.stderr.value)")
        #expect(home.headers["location"] == "/albums/blue/")
    }

    /// A page left open on an album that a save renames (its title, and with it its slug) is
    /// sent to the album's new address when it reloads, not to the 404 page; renamed again,
    /// the first address follows it too. Addresses nothing moved from stay 404.
    @Test func aRenamedAlbumsOldAddressLeadsToItsNewPage() async throws {
        let folder = try Fixture.site([Fixture.album("Blue", "Joni Mitchell"), Fixture.album("Hejira", "Joni Mitchell")])
        let server = try await ServeProcess(in: folder.url)
        #expect(try await RawResponse.get("/albums/joni-mitchell-blue/", port: server.port).status == 200)
        let deadline = Date().addingTimeInterval(30)
        for (title, slug) in [("Court and Spark", "joni-mitchell-court-and-spark"), ("Ladies of the Canyon", "joni-mitchell-ladies-of-the-canyon")] {
            try folder.write(Fixture.archive([Fixture.album(title, "Joni Mitchell"), Fixture.album("Hejira", "Joni Mitchell")]), to: "content/albums.json")
            let note = "album 1 moved to albums/\(slug)/"
            while !server.stderr.value.contains(note), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
            #expect(server.stderr.value.contains(note), "\(server.stderr.value)")
            // The note is printed while the build writes; the server learns of the move once the
            // build is done (before it tells open pages to reload), a moment later.
            while Date() < deadline {
                let followed = try await RawResponse.get("/albums/joni-mitchell-blue/", port: server.port).headers["location"] == "/albums/\(slug)/"
                if followed { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            for old in ["/albums/joni-mitchell-blue/", "/albums/joni-mitchell-blue/index.html", "/albums/joni-mitchell-blue"] {
                let moved = try await RawResponse.get(old, port: server.port)
                #expect(moved.status == 302, "\(old)")
                #expect(moved.headers["location"] == "/albums/\(slug)/", "\(old)")
            }
            #expect(try await RawResponse.get("/albums/\(slug)/", port: server.port).status == 200)
        }
        #expect(try await RawResponse.get("/albums/joni-mitchell-court-and-spark/", port: server.port).headers["location"] == "/albums/joni-mitchell-ladies-of-the-canyon/")
        #expect(try await RawResponse.get("/albums/no-such-album/", port: server.port).status == 404)
    }

    /// The cache deleted while serving (the whole of it, or only the preview folder) is built
    /// again at once, not at the next save; a request meanwhile waits for it instead of a 404.
    @Test(arguments: [".gallery-cache", ".gallery-cache/preview"])
    func aDeletedPreviewFolderIsBuiltAgain(deleted: String) async throws {
        let folder = try Fixture.site([Fixture.album("Blue", "Joni Mitchell", slug: "blue")])
        let server = try await ServeProcess(in: folder.url)
        try FileManager.default.removeItem(at: folder.url.appending(path: deleted))
        let page = try await RawResponse.get("/albums/blue/", port: server.port)
        #expect(page.status == 200, "\(server.stderr.value)")
        #expect(page.body.contains("Blue"))
        #expect(try folder.read(preview + "albums/blue/index.html").contains("Blue"))
        #expect(try await RawResponse.get("/", port: server.port).status == 200)
        #expect(server.stderr.value.contains("is gone; building it again"), "\(server.stderr.value)")
    }

    @Test func ctrlCStopsTheServerCleanlyEvenWithAPageListening() async throws {
        let folder = try site()
        // Started with SIGINT blocked, as from a test runner's worker thread: serve must unblock it.
        let server = try await ServeProcess(in: folder.url, blockingShutdownSignals: true)
        let socket = try await RawWebSocket(port: server.port)
        server.signal(SIGINT)
        #expect(try await socket.waitForClose(), "the page's socket is closed")
        #expect(await server.waitForExit(timeout: 20) == 0, "stderr: \(server.stderr.value)")
        #expect(server.process.terminationReason == .exit)
        await #expect(throws: (any Error).self) { try await RawResponse.get("/", port: server.port) }
        #expect(server.stdout.value.components(separatedBy: "Serving http://").count == 2, "announced once")
    }

    @Test func sigtermStopsItTooAndOutputChoosesTheFolder() async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url, arguments: ["--output", "out"])
        #expect(try await RawResponse.get("/", port: server.port).body.contains("Hejira"))
        #expect(try folder.read("out/index.html").contains("Hejira"))
        #expect(!folder.exists(preview))
        server.signal(SIGTERM)
        #expect(await server.waitForExit(timeout: 20) == 0, "stderr: \(server.stderr.value)")
    }
}
