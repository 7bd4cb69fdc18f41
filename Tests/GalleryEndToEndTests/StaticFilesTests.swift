import Foundation
import Testing

/// `static/`: files the site publishes as they are, at the top of the output, as Hugo's.
@Suite struct StaticFilesTests {
    @Test func staticFilesArePublishedAsTheyAreAndFollowTheirSource() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write("albums.example.org\n", to: "static/CNAME")
        try site.write("User-agent: *\n", to: "static/robots.txt")
        try site.write("", to: "static/.nojekyll")
        try site.write("Contact: mailto:a@example.org\n", to: "static/.well-known/security.txt")
        try site.write("not really a png\n", to: "static/img/logo.png")
        let run = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        for path in ["CNAME", "robots.txt", ".nojekyll", ".well-known/security.txt", "img/logo.png"] {
            #expect(try site.read("public/" + path) == site.read("static/" + path), "\(path)")
        }
        // Editors' backups and swap files beside them are not (nor in assets/).
        for path in ["static/robots.txt~", "static/.robots.txt.swp", "static/#CNAME#", "assets/site.css~", "assets/css/#label.css#"] {
            try site.write("left by an editor\n", to: path)
        }
        try site.write("p { color: red }\n", to: "assets/site.css")
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        for path in ["robots.txt~", ".robots.txt.swp", "#CNAME#", "assets/site.css~", "assets/css/#label.css#"] {
            #expect(!FileManager.default.fileExists(atPath: site.url.appending(path: "public/" + path).path), "\(path) was published")
        }
        #expect(FileManager.default.fileExists(atPath: site.url.appending(path: "public/assets/site.css").path))
        // Without an icon the pages say there is none; with static/favicon.ico they link it.
        #expect(try site.read("public/albums/b-a/index.html").contains("<link rel=\"icon\" href=\"data:,\"/>"))
        try site.write("not really an icon\n", to: "static/favicon.ico")
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        #expect(try site.read("public/index.html").contains("<link rel=\"icon\" href=\"./favicon.ico\"/>"))
        #expect(try site.read("public/albums/b-a/index.html").contains("<link rel=\"icon\" href=\"../../favicon.ico\"/>"))
        #expect(try await GalleryBinary.run(["check"], in: site.url).status == 0)
        try FileManager.default.removeItem(at: site.url.appending(path: "static/favicon.ico"))
        #expect(try await GalleryBinary.run(["check"], in: site.url).status == 0)
        // Checked from outside the site, a static page that is no XHTML is a finding, and a note
        // says to check from the site.
        try site.write("<p>legacy<br></p>\n", to: "static/legacy.html")
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let elsewhere = try TemporaryFolder()
        let outside = try await GalleryBinary.run(["check", site.url.appending(path: "public").path], in: elsewhere.url)
        #expect(outside.status != 0)
        #expect(outside.stderr.contains("note: this folder is no site folder; run gallery check in the site the output was built from (or give --site DIR)"), "\(outside.stderr)")
        #expect(try await GalleryBinary.run(["check", "--site", site.url.path, site.url.appending(path: "public").path], in: elsewhere.url).status == 0)
        try FileManager.default.removeItem(at: site.url.appending(path: "static/legacy.html"))
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        // A changed file is published again, a removed one leaves the output; nothing else moves.
        try site.write("User-agent: *\nDisallow: /private/\n", to: "static/robots.txt")
        try FileManager.default.removeItem(at: site.url.appending(path: "static/img/logo.png"))
        let again = try await GalleryBinary.run(["build", "--log-format", "json"], in: site.url)
        #expect(again.status == 0, "\(again.stderr)")
        let summary = try #require(again.stdout.split(separator: "\n").last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        let files = try #require(summary["files"] as? [String: Int])
        #expect(files["written"] == 1 && files["removed"] == 1, "\(files)")
        // A removed file that is not a page is no removed page.
        let pages = try #require(summary["pages"] as? [String: Int])
        #expect(pages["removed"] == 0, "\(pages)")
        #expect(try site.read("public/robots.txt").contains("Disallow: /private/"))
        #expect(!site.exists("public/img/logo.png"))
    }

    /// A site's style sheet names images and fonts relative to itself; one that names no file
    /// of the output fails the build at its `url(`, in the file to edit, and nothing is written.
    @Test func aStyleSheetsURLsMustLandOnFiles() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write("not really a png\n", to: "static/img/hero.png")
        try site.write("not really a font\n", to: "assets/fonts/a.woff2")
        try site.write("""
        @font-face { font-family: A; src: url(../fonts/a.woff2) format("woff2"); }
        header { background: url(img/hero.png) no-repeat; }

        """, to: "assets/css/site.css")
        let broken = try await GalleryBinary.run(["build"], in: site.url)
        #expect(broken.status != 0)
        #expect(broken.stderr.contains("assets/css/site.css:2:22: error: broken url('img/hero.png') (no such file in the output: assets/css/img/hero.png); URLs in a style sheet are relative to the style sheet, not to the page: write '../../img/hero.png'"), "\(broken.stderr)")
        #expect(!site.exists("public/index.html"), "nothing is written")
        try site.write("""
        @font-face { font-family: A; src: url(../fonts/a.woff2) format("woff2"); }
        header { background: url(../../img/hero.png) no-repeat; }

        """, to: "assets/css/site.css")
        let fixed = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(try await GalleryBinary.run(["check"], in: site.url).status == 0)
        // The file it names going away fails the next build, though the sheet did not change.
        try FileManager.default.removeItem(at: site.url.appending(path: "static/img/hero.png"))
        let gone = try await GalleryBinary.run(["build"], in: site.url)
        #expect(gone.status != 0)
        #expect(gone.stderr.contains("assets/css/site.css:2:22: error: broken url('../../img/hero.png')"), "\(gone.stderr)")
    }

    @Test func aStaticFileNeverReplacesWhatGalleryWrites() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let before = try site.read("public/index.html")
        try site.write("<p>mine</p>\n", to: "static/index.html")
        try site.write("{}\n", to: "static/albums.json")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("static/index.html: error: gallery writes index.html itself, so this file would replace it; rename or remove it; to make this page your own, write templates/index.mustache (gallery templates index gives the built-in one to start from)"), "\(run.stderr)")
        #expect(run.stderr.contains("static/albums.json: error: gallery writes albums.json itself, so this file would replace it; rename or remove it\n"), "\(run.stderr)")
        #expect(try site.read("public/index.html") == before)
        let into = try await GalleryBinary.run(["build", "--output", "static/out"], in: site.url)
        #expect(into.status != 0)
        #expect(into.stderr.contains("the output folder is inside static/"), "\(into.stderr)")
    }

    /// A large static file (a video, a download) is hashed and copied a mebibyte at a time: it
    /// was read whole, and copied again, so a 400 MB folder took 850 MB of memory. Its bytes
    /// are published as they are, an unchanged one is left in place, a changed one copied anew.
    @Test func aLargeStaticFileIsCopiedInPiecesNotHeldInMemory() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write("", to: "static/video/trailer.mp4")
        let size = 192 << 20
        let video = site.url.appending(path: "static/video/trailer.mp4")
        // Mostly a hole (cheap to make), with a byte either side of a piece's edge.
        func mark(_ offsets: [Int], _ byte: UInt8) throws {
            let handle = try FileHandle(forWritingTo: video)
            for offset in offsets {
                try handle.seek(toOffset: UInt64(offset))
                try handle.write(contentsOf: [byte])
            }
            try handle.close()
        }
        try FileHandle(forWritingTo: video).truncate(atOffset: UInt64(size))
        try mark([0, (1 << 20) - 1, 1 << 20, size - 1], 0x5A)
        // The build's peak memory, through a parent that reports its child's.
        let measured = ["-c", "import resource, subprocess, sys; status = subprocess.run(sys.argv[1:]).returncode; print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(status)"]
        let run = try await GalleryBinary.run(measured + [GalleryBinary.url.path, "build", "-q"], in: site.url, binary: URL(fileURLWithPath: "/usr/bin/python3"))
        #expect(run.status == 0, "\(run.stderr)")
        let peakKB = try #require(run.stdout.split(separator: "\n").last.flatMap { Int($0) })
        #expect(peakKB < size / 1024, "peak \(peakKB) KB for a \(size >> 20) MB file")
        func published() async throws -> Bool {
            try await GalleryBinary.run(["cmp", video.path, site.url.appending(path: "public/video/trailer.mp4").path], in: site.url, binary: URL(fileURLWithPath: "/usr/bin/env")).status == 0
        }
        #expect(try await published())
        let inode = try site.inodes()["video/trailer.mp4"]
        // Another static file, so the build looks at static/ again.
        try site.write("User-agent: *\n", to: "static/robots.txt")
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        #expect(site.exists("public/robots.txt"))
        #expect(try site.inodes()["video/trailer.mp4"] == inode, "an unchanged file is left in place")
        // One byte in the middle of a later piece.
        try mark([100 << 20], 0x01)
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        #expect(try site.inodes()["video/trailer.mp4"] != inode)
        #expect(try await published())
    }

    /// A named pipe in static/ (left by a tool, or made by mistake) was read until something
    /// wrote to it: the build hung for good. It is refused, named.
    @Test func aNamedPipeInStaticIsRefusedNotWaitedOn() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write("User-agent: *\n", to: "static/robots.txt")
        #expect(mkfifo(site.url.appending(path: "static/feed").path, 0o644) == 0)
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("static/feed: error: this static file is not a regular file (a named pipe, a socket or a device), which cannot be published; remove it from static/"), "\(run.stderr)")
    }

    /// A static file whose name holds a line break was published, and never removed once gone
    /// from static/ (the build's record of its outputs is a line each). It is refused, named.
    @Test func aStaticFileNamedWithALineBreakIsRefused() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write("x\n", to: "static/new\nline.txt")
        try site.write("x\n", to: "static/old\rline.txt")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("line.txt: error: this static file's name holds a line break, which no address should; rename it"), "\(run.stderr)")
        // Both at once, not one a build.
        #expect(run.stderr.components(separatedBy: "this static file's name holds a line break").count == 3, "\(run.stderr)")
        #expect(!site.exists("public/index.html"))
    }

    /// A static file or asset whose name is not UTF-8 (Latin-1, from an old archive) was left
    /// unpublished without a word: Foundation's walk never sees it. Each is named, with a warning
    /// and what to do; the build goes on, and the other files are published.
    @Test func aFileNamedInLatin1IsNamedNotLeftOutSilently() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write("ok\n", to: "static/sub/ok.txt")
        let latin1 = [UInt8]("caf".utf8) + [0xE9] + [UInt8](".txt".utf8)
        for folder in ["static", "static/sub", "assets"] {
            try FileManager.default.createDirectory(at: site.url.appending(path: folder), withIntermediateDirectories: true)
            let bytes = Array(site.url.appending(path: folder).path.utf8) + [0x2F] + latin1 + [0]
            let fd = bytes.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) } }
            #expect(fd >= 0, "\(folder)")
            close(fd)
        }
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        let said = "name is not UTF-8 text, so it is not published; rename it"
        #expect(run.stderr.contains("static/caf\u{FFFD}.txt: warning: this static file's \(said)"), "\(run.stderr)")
        #expect(run.stderr.contains("static/sub/caf\u{FFFD}.txt: warning: this static file's \(said)"), "\(run.stderr)")
        #expect(run.stderr.contains("assets/caf\u{FFFD}.txt: warning: this asset's \(said)"), "\(run.stderr)")
        #expect(site.exists("public/sub/ok.txt"))
    }

    /// A file of assets/ with the name a built-in asset is published under (a copy of
    /// public/assets/ put back into assets/) replaced the site's script on every page, without
    /// a word; static/assets/ had the same refused already.
    @Test func anAssetNamedAsAFingerprintedBuiltInIsRefused() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let script = try #require(site.files(under: "public/assets").first { $0.hasPrefix("gallery.") && $0.hasSuffix(".js") })
        let before = try site.read("public/assets/\(script)")
        try site.write("console.log(1)\n", to: "assets/\(script)")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("assets/\(script): error: this file has the name gallery publishes its own gallery.js under (assets/\(script)), so it would replace it on every page"), "\(run.stderr)")
        #expect(try site.read("public/assets/\(script)") == before)
    }

    /// A static folder of a one-character name that left the output crashed the build (SIGILL
    /// in Foundation's path code, as the folder was removed), and `gallery serve` with it.
    @Test func aOneCharacterFolderThatLeavesTheOutputIsRemoved() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write("x\n", to: "static/a/b.txt")
        try site.write("y\n", to: "static/é/c/d.txt")
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        #expect(site.exists("public/a/b.txt") && site.exists("public/é/c/d.txt"))
        try FileManager.default.removeItem(at: site.url.appending(path: "static"))
        let run = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(run.status == 0, "\(run.status): \(run.stderr)")
        #expect(!site.exists("public/a") && !site.exists("public/é"))
    }

    /// A static file named as a folder gallery writes into failed the write step with "Is a
    /// directory", naming neither the file nor what to do.
    @Test func aStaticFileNamedAsAFolderGalleryWritesIsRefused() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let before = try site.read("public/index.html")
        try site.write("x\n", to: "static/albums")
        try site.write("y\n", to: "static/page/2")
        try site.write("z\n", to: "static/docs/notes.txt")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("static/albums: error: gallery writes pages or files into a folder named albums/, so this file cannot take its name; rename or remove it"), "\(run.stderr)")
        #expect(!run.stderr.contains("static/page/2") && !run.stderr.contains("docs"), "\(run.stderr)")
        #expect(!run.stderr.contains("Is a directory"), "\(run.stderr)")
        #expect(try site.read("public/index.html") == before)
    }

    /// Two static files named `café.txt`, one with `é` composed and one decomposed, are told
    /// apart by their bytes (not said to be a file gallery writes).
    @Test func twoStaticNamesOneInUnicodeAreNamedAsSuch() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write("composed\n", to: "static/caf\u{E9}.txt")
        try site.write("decomposed\n", to: "static/cafe\u{301}.txt")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        #expect(run.stderr.components(separatedBy: "are one name written in two ways in Unicode").count == 2, "said once: \(run.stderr)")
        #expect(run.stderr.contains(#"'caf\u{E9}.txt' and 'cafe\u{301}.txt'"#) || run.stderr.contains(#"'cafe\u{301}.txt' and 'caf\u{E9}.txt'"#), "\(run.stderr)")
        #expect(!run.stderr.contains("gallery writes"), "\(run.stderr)")
    }

    /// A symbolic link is followed only to a file inside the site folder, as a cover's is: a
    /// cloned site linking `static/key` to `~/.ssh/…` must not publish it.
    @Test func linksOutOfTheSiteAndFolderLinksAreLeftOutAndSaidSo() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        let outside = try TemporaryFolder()
        try outside.write("secret\n", to: "secret.txt")
        try site.write("shared\n", to: "shared/inside.txt")
        try site.write("x\n", to: "static/plain.txt")
        let links = [("static/leak.txt", outside.url.appending(path: "secret.txt").path), ("static/outdir", outside.url.path),
                     ("static/inside.txt", "../shared/inside.txt"), ("static/shared", "../shared"), ("assets/leak.css", outside.url.appending(path: "secret.txt").path),
                     ("assets/label.css", "../shared/label.css"), ("assets/gallery.css", "../shared/gallery.css")]
        // Assets linked to files inside the site are published as static files are: a linked
        // gallery.css replaces the built-in one (it was left out, and the built-in one published).
        try site.write(".label { color: teal }\n", to: "shared/label.css")
        try site.write(".site-title { color: rebeccapurple }\n", to: "shared/gallery.css")
        for (link, target) in links {
            try FileManager.default.createDirectory(at: site.url.appending(path: link).deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: site.url.appending(path: link).path, withDestinationPath: target)
        }
        // Into the site's .git, whose config can hold a CI job's token.
        try site.write("[http]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n", to: ".git/config")
        try FileManager.default.createSymbolicLink(atPath: site.url.appending(path: "static/git-config").path, withDestinationPath: "../.git/config")
        let run = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("static/git-config: warning: this static file is a symbolic link into the site's .git, whose files are never published"), "\(run.stderr)")
        #expect(!site.exists("public/git-config"))
        #expect(run.stderr.contains("static/leak.txt: warning: this static file is a symbolic link that leads outside the site folder (to "), "\(run.stderr)")
        #expect(run.stderr.contains("static/outdir: warning: this static file is a symbolic link that leads outside the site folder"), "\(run.stderr)")
        #expect(run.stderr.contains("static/shared: warning: this static file is a symbolic link to a folder, which gallery does not follow"), "\(run.stderr)")
        #expect(run.stderr.contains("assets/leak.css: warning: this asset is a symbolic link that leads outside the site folder"), "\(run.stderr)")
        #expect(!site.exists("public/leak.txt") && !site.exists("public/outdir") && !site.exists("public/shared") && !site.exists("public/assets/leak.css"))
        #expect(try site.read("public/inside.txt") == "shared\n")
        #expect(try site.read("public/plain.txt") == "x\n")
        #expect(try site.read("public/assets/label.css") == ".label { color: teal }\n")
        let sheets = site.files(under: "public/assets").filter { $0.hasPrefix("gallery.") && $0.hasSuffix(".css") }
        #expect(sheets.count == 1)
        #expect(try sheets.first.map { try site.read("public/assets/\($0)") } == ".site-title { color: rebeccapurple }\n")
    }

    /// static/ and assets/ may themselves be links to folders in the site (a theme kept in
    /// theme/): they are read where they lead, as templates/ is. They were walked as files and
    /// published nothing, without a word. A link out of the site is refused as a file's is.
    @Test func linkedStaticAndAssetsFoldersArePublishedFromInsideTheSiteOnly() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write("User-agent: *\n", to: "theme/static/robots.txt")
        try site.write("ok\n", to: "theme/static/.well-known/security.txt")
        try site.write(".label { color: teal }\n", to: "theme/assets/label.css")
        try? FileManager.default.removeItem(at: site.url.appending(path: "assets"))
        try FileManager.default.createSymbolicLink(atPath: site.url.appending(path: "static").path, withDestinationPath: "theme/static")
        try FileManager.default.createSymbolicLink(atPath: site.url.appending(path: "assets").path, withDestinationPath: "theme/assets")
        let run = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("warning"), "\(run.stderr)")
        #expect(try site.read("public/robots.txt") == "User-agent: *\n")
        #expect(try site.read("public/.well-known/security.txt") == "ok\n")
        #expect(try site.read("public/assets/label.css") == ".label { color: teal }\n")
        // gallery check knows the linked static files as published as they are.
        #expect(try await GalleryBinary.run(["check"], in: site.url).status == 0)

        let outside = try TemporaryFolder()
        try outside.write("secret\n", to: "id_rsa")
        try FileManager.default.removeItem(at: site.url.appending(path: "static"))
        try FileManager.default.createSymbolicLink(atPath: site.url.appending(path: "static").path, withDestinationPath: outside.url.path)
        let refused = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(refused.status == 0, "\(refused.stderr)")
        #expect(refused.stderr.contains("static: warning: static/ is a symbolic link that leads outside the site folder (to "), "\(refused.stderr)")
        #expect(!site.exists("public/id_rsa") && !site.exists("public/robots.txt"))
        // Nor into the site's .git.
        try site.write("[core]\n", to: ".git/config")
        try FileManager.default.removeItem(at: site.url.appending(path: "static"))
        try FileManager.default.createSymbolicLink(atPath: site.url.appending(path: "static").path, withDestinationPath: ".git")
        let git = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(git.stderr.contains("static: warning: static/ is a symbolic link into the site's .git, whose files are never published"), "\(git.stderr)")
        #expect(!site.exists("public/config"))
    }
}
