import Foundation
import Testing

/// Where a build writes and what `gallery check` looks at: a build never writes over the site's
/// own files, and `check` checks what the build wrote, as the build would.
@Suite struct OutputFolderTests {
    @Test func anOutputFolderAmongTheSitesOwnFilesIsRefusedAndNothingIsLost() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        let site = folder.url.appending(path: "site")
        try FileManager.default.createSymbolicLink(atPath: site.appending(path: "linked").path, withDestinationPath: "content")
        try folder.write("a { }\n", to: "site/assets/extra.css")
        let archive = try folder.read("site/content/albums.json")
        let cases = [
            ("content", "content: error: the output folder is content/, whose files the build's own would overwrite"),
            ("content/covers", "content/covers: error: the output folder is inside content/"),
            ("linked/new", "linked/new: error: the output folder is inside content/"),
            (".", ".: error: the output folder is the site folder itself"),
            ("..", "error: the output folder holds the site folder"),
            ("assets", "assets: error: the output folder is assets/"),
            (".gallery-cache", ".gallery-cache: error: the output folder is the cache folder"),
        ]
        for (output, message) in cases {
            let run = try await GalleryBinary.run(["build", "--output", output], in: site)
            #expect(run.status != 0, "\(output)")
            #expect(run.stderr.contains(message), "\(output): \(run.stderr)")
            #expect(run.stderr.contains("write the site to another folder with --output or [build] output"), "\(output)")
        }
        // The same from gallery.toml, named there.
        let settings = try folder.read("site/gallery.toml")
        #expect(settings.contains("\noutput = \"public\""))
        try folder.write(settings.replacingOccurrences(of: "\noutput = \"public\"", with: "\noutput = \"content\""), to: "site/gallery.toml")
        let configured = try await GalleryBinary.run(["build"], in: site)
        #expect(configured.status != 0)
        // At the line that sets it.
        let outputLine = try #require(settings.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("output = ") }) + 1
        #expect(configured.stderr.contains("gallery.toml:\(outputLine):1: error: the output folder is content/"), "\(configured.stderr)")
        #expect(try folder.read("site/content/albums.json") == archive)
        #expect(folder.files(under: "site/content") == ["albums.json"] + folder.files(under: "site/content/covers").map { "covers/" + $0 })
        #expect(!folder.exists("site/index.html") && !folder.exists("index.html") && !folder.exists("site/assets/gallery.css"))
        try folder.write("not a folder\n", to: "site/afile")
        let file = try await GalleryBinary.run(["build", "--output", "afile"], in: site)
        #expect(file.status != 0)
        #expect(file.stderr.contains("afile: error: this is a file, not a folder; name a folder (it is made if missing) with --output or [build] output"), "\(file.stderr)")
        #expect(file.stderr.contains("build failed in step 'load'"))
        // A folder of its own inside the site, such as docs/ for GitHub Pages, is fine.
        let docs = try await GalleryBinary.run(["build", "-q", "--output", "docs"], in: site)
        #expect(docs.status == 0, "\(docs.stderr)")
        #expect(folder.exists("site/docs/index.html"))
    }

    /// `[build] cache` is guarded like the output folder: a cache among the site's files would
    /// be read as the site's own or published with it.
    /// An output folder made beforehand keeps its mode (and so its owner and group), and one that
    /// is a link to a folder elsewhere stays a link: the build writes into them, file by file,
    /// through a staging folder inside (a mount point cannot be renamed over). The build used to
    /// rename a folder of its own over an empty one, and fail on a link.
    @Test func aPreparedOutputFolderOrALinkToOneIsWrittenInto() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        let prepared = folder.url.appending(path: "www")
        try FileManager.default.createDirectory(at: prepared, withIntermediateDirectories: true)
        #expect(chmod(prepared.path, 0o2770) == 0)
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: prepared.path)[.systemFileNumber] as? Int)
        let run = try await GalleryBinary.run(["build", "-q", "--site", "site", "--output", "www"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let after = try FileManager.default.attributesOfItem(atPath: prepared.path)
        #expect(after[.systemFileNumber] as? Int == inode, "the same folder")
        #expect((after[.posixPermissions] as? Int).map { $0 & 0o7777 } == 0o2770)
        #expect(folder.exists("www/index.html"))
        #expect(!folder.exists("www/.gallery-staging") && !folder.exists(".www.staging"))

        try FileManager.default.createDirectory(at: folder.url.appending(path: "elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.url.appending(path: "published").path, withDestinationPath: "elsewhere")
        let linked = try await GalleryBinary.run(["build", "-q", "--site", "site", "--output", "published"], in: folder.url)
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(folder.exists("elsewhere/index.html"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.url.appending(path: "published").path) == "elsewhere")
    }

    /// A folder of the output that is a link (to a folder outside it) would take the build's
    /// files outside: the build refuses before moving any, naming it. What a killed build left
    /// staged is no part of the site, and the next build clears it; `check` names it, as a
    /// deploy before that build would publish it.
    @Test func aLinkedFolderInTheOutputIsRefusedAndLeftoversAreCleared() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        #expect(try await GalleryBinary.run(["build", "-q", "--site", "site"], in: folder.url).status == 0)
        try folder.write("<p>half</p>\n", to: "site/public/.gallery-staging/albums/x/index.html")
        let leftovers = try await GalleryBinary.run(["check", "--site", "site"], in: folder.url)
        #expect(leftovers.status != 0)
        #expect(leftovers.stderr.contains("site/public/.gallery-staging: error: a build of this folder was stopped (killed, or still running) and left its staging folder, holding 1 file, which a deploy of this folder would publish; run gallery build again, which clears it, or remove it"), "\(leftovers.stderr)")
        let covers = folder.url.appending(path: "site/public/covers")
        try FileManager.default.removeItem(at: covers)
        try FileManager.default.createDirectory(at: folder.url.appending(path: "outside"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: covers.path, withDestinationPath: "../../outside")
        let index = try folder.read("site/public/index.html")
        try folder.write("title = \"Renamed\"\n", to: "site/gallery.toml")
        let run = try await GalleryBinary.run(["build", "--site", "site"], in: folder.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("public/covers: this is a symbolic link, and files written through it would land outside the output folder; remove the link (the build makes the folder)\n"), "\(run.stderr)")
        // Refused before anything moved, which the last line says too.
        #expect(run.stderr.contains("build failed in step 'write' with 1 error; the output folder was not changed"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.appending(path: "outside").path).isEmpty)
        #expect(try folder.read("site/public/index.html") == index)
        try FileManager.default.removeItem(at: covers)
        let again = try await GalleryBinary.run(["build", "-q", "--site", "site"], in: folder.url)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try folder.read("site/public/index.html").contains("Renamed"))
        #expect(!folder.exists("site/public/.gallery-staging"))
        #expect(try await GalleryBinary.run(["check", "--site", "site"], in: folder.url).status == 0)
    }

    /// The home folder and system folders are no output folder (with --clean-destination a
    /// build there removed everything it did not write).
    @Test func theHomeFolderAndSystemFoldersAreRefused() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        try folder.write("mine\n", to: "home/notes.txt")
        let shell = URL(fileURLWithPath: "/bin/sh")
        let home = try await GalleryBinary.run(["-c", "HOME=\"$PWD/home\" \"$0\" build --site site --output home --clean-destination", GalleryBinary.url.path], in: folder.url, binary: shell)
        #expect(home.status != 0)
        #expect(home.stderr.contains("home: error: the output folder is your home folder, among whose files a build writes its own (and `gallery build --clean-destination` would remove the rest); write the site to another folder"), "\(home.stderr)")
        #expect(try folder.read("home/notes.txt") == "mine\n")
        #expect(!folder.exists("home/index.html"))
        let system = try await GalleryBinary.run(["build", "--site", "site", "--output", "/etc"], in: folder.url)
        #expect(system.status != 0)
        #expect(system.stderr.contains("/etc: error: the output folder is the system folder /etc"), "\(system.stderr)")
    }

    /// The home folder is the user's whatever HOME says: with HOME unset (cron, `env -i`) or
    /// another's (`sudo` keeping the caller's), a build wrote into `~/.ssh`, and made it.
    @Test func theHomeFolderIsKnownWithoutHOME() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        let home = try #require(getpwuid(geteuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } })
        let hidden = URL(fileURLWithPath: home).appending(path: ".gallery-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: hidden) }
        let shell = URL(fileURLWithPath: "/bin/sh")
        for setting in ["unset HOME", "HOME=\"$PWD\"; export HOME"] {
            let run = try await GalleryBinary.run(["-c", "\(setting); \"$0\" build --site site --output \"$1\"", GalleryBinary.url.path, hidden.appending(path: "out").path], in: folder.url, binary: shell)
            #expect(run.status != 0, "\(setting)")
            #expect(run.stderr.contains("error: the output folder is inside \(hidden.lastPathComponent) in your home folder (settings, keys and profiles)"), "\(setting): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: hidden.path), "\(setting)")
        }
    }

    /// A folder of the site, or its archive, that is a symbolic link into the output folder
    /// (`static -> public/mystatic`; an archive linked to the published `www/albums.json`) was
    /// overwritten by the build's own files, or removed by --clean-destination.
    @Test func anOutputFolderThatHoldsTheSitesOwnFilesThroughALinkIsRefused() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        try folder.write("robots\n", to: "site/public/mystatic/robots.txt")
        try FileManager.default.createSymbolicLink(atPath: folder.url.appending(path: "site/static").path, withDestinationPath: "public/mystatic")
        let held = try await GalleryBinary.run(["build", "--site", "site", "--clean-destination"], in: folder.url)
        #expect(held.status != 0)
        #expect(held.stderr.contains("error: the output folder holds static/ (a symbolic link leads there), which the build would overwrite with its own files or --clean-destination remove; move static/ out of the output folder; write the site to another folder"), "\(held.stderr)")
        #expect(try folder.read("site/public/mystatic/robots.txt") == "robots\n")
        try FileManager.default.removeItem(at: folder.url.appending(path: "site/static"))
        // The archive, kept beside the published site and linked into content/.
        let archive = try folder.read("site/content/albums.json")
        try folder.write(archive, to: "www/albums.json")
        try FileManager.default.removeItem(at: folder.url.appending(path: "site/content/albums.json"))
        try FileManager.default.createSymbolicLink(atPath: folder.url.appending(path: "site/content/albums.json").path, withDestinationPath: "../../www/albums.json")
        let linked = try await GalleryBinary.run(["build", "--site", "site", "--output", "www"], in: folder.url)
        #expect(linked.status != 0)
        #expect(linked.stderr.contains("www: error: the output folder holds the album archive content/albums.json (a symbolic link leads there)"), "\(linked.stderr)")
        #expect(try folder.read("www/albums.json") == archive)
        #expect(!folder.exists("www/index.html"))
    }

    /// Deeper in: covers, partials or a cover file that a link or a cover_url reaches in the
    /// output folder are the site's own, and --clean-destination leaves them, saying so (it
    /// removed them: the covers were lost, and the built-in partials stood in without a word).
    @Test func cleanDestinationLeavesTheSitesOwnFilesReachedInTheOutput() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        let site = folder.url.appending(path: "site")
        try FileManager.default.createDirectory(at: site.appending(path: "public"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: site.appending(path: "content/covers"), to: site.appending(path: "public/originals"))
        try FileManager.default.createSymbolicLink(atPath: site.appending(path: "content/covers").path, withDestinationPath: "../public/originals")
        try folder.write("<p>{{album.title}}</p>\n", to: "site/public/mine/tile-note.mustache")
        try FileManager.default.createDirectory(at: site.appending(path: "templates"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site.appending(path: "templates/notes").path, withDestinationPath: "../public/mine")
        try folder.write("a stray\n", to: "site/public/stray.txt")
        let run = try await GalleryBinary.run(["build", "--site", "site", "--clean-destination"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!folder.exists("site/public/stray.txt"))
        #expect(folder.files(under: "site/public/originals").count == 5)
        #expect(folder.exists("site/public/mine/tile-note.mustache"))
        #expect(run.stderr.contains("6 files here are the site's own (mine/tile-note.mustache, originals/"), "\(run.stderr)")
    }

    /// The output's files and folders take their mode from the umask, as any tool's: under
    /// umask 002 a group-owned web root stays writable by the group (it was 644 and 755
    /// whatever the umask, and a teammate's next build failed).
    @Test(arguments: [("002", "664", "775"), ("022", "644", "755"), ("077", "600", "700")])
    func theOutputsModesFollowTheUmask(umask: String, file: String, folder: String) async throws {
        let scratch = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: scratch.url).status == 0)
        let shell = URL(fileURLWithPath: "/bin/sh")
        let run = try await GalleryBinary.run(["-c", "umask \(umask) && \"$0\" build -q --site site", GalleryBinary.url.path], in: scratch.url, binary: shell)
        #expect(run.status == 0, "\(run.stderr)")
        func mode(_ path: String) throws -> String {
            let attributes = try FileManager.default.attributesOfItem(atPath: scratch.url.appending(path: path).path)
            return String((attributes[.posixPermissions] as? Int ?? 0), radix: 8)
        }
        #expect(try mode("site/public/index.html") == file)
        #expect(try mode("site/public/albums/david-bowie-best-of-bowie/index.html") == file)
        #expect(try mode("site/public/albums/david-bowie-best-of-bowie") == folder)
        #expect(try mode("site/public/albums") == folder)
    }

    /// `--cache` keeps the cache elsewhere (a site checked out read-only); a cache folder that
    /// cannot be written fails the build at once, before any page is rendered, saying so.
    @Test func theCacheCanBeElsewhereAndAnUnwritableOneIsSaidAtOnce() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        let elsewhere = try await GalleryBinary.run(["build", "-q", "--site", "site", "--cache", "cache"], in: folder.url)
        #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
        #expect(folder.exists("cache/builds") && !folder.exists("site/.gallery-cache"))
        try folder.write("not a folder\n", to: "blocked")
        let blocked = try await GalleryBinary.run(["build", "--site", "site", "--cache", "blocked/cache"], in: folder.url)
        #expect(blocked.status != 0)
        #expect(blocked.stderr.contains("blocked/cache: error: the cache folder blocked/cache cannot be written (Not a directory); name a writable one with --cache DIR or [build] cache"), "\(blocked.stderr)")
        #expect(blocked.stderr.contains("build failed in step 'load'"))

        // Inside a writable cache, the manifests' folder is checked at once too (it was found
        // only in the write step, after pages of removed albums were deleted), and the
        // thumbnails' is said (every build remade every thumbnail without a word).
        try folder.write(#"{"version": 1, "albums": [{"title": "Only", "artist": "A", "genre": "G", "year": 2000, "cover_url": "covers/best-of-bowie.svg"}]}"#, to: "site/content/albums.json")
        try FileManager.default.removeItem(at: folder.url.appending(path: "cache/builds"))
        try folder.write("not a folder\n", to: "cache/builds")
        let pages = folder.files(under: "site/public")
        let noManifests = try await GalleryBinary.run(["build", "--site", "site", "--cache", "cache"], in: folder.url)
        #expect(noManifests.status != 0)
        #expect(noManifests.stderr.contains("cache/builds: error: the folder cache/builds in the cache cannot be written (Not a directory); the build records what it wrote there"), "\(noManifests.stderr)")
        #expect(folder.files(under: "site/public") == pages, "the output folder was changed")
        try FileManager.default.removeItem(at: folder.url.appending(path: "cache/builds"))
        try FileManager.default.removeItem(at: folder.url.appending(path: "cache/thumbnails"))
        try folder.write("not a folder\n", to: "cache/thumbnails")
        let noThumbnails = try await GalleryBinary.run(["build", "--site", "site", "--cache", "cache"], in: folder.url)
        #expect(noThumbnails.status == 0, "\(noThumbnails.stderr)")
        #expect(noThumbnails.stderr.contains("cache/thumbnails: warning: the thumbnail cache cache/thumbnails cannot be written (Not a directory), so every build makes the thumbnails again"), "\(noThumbnails.stderr)")
    }

    @Test func aCacheAmongTheSitesOwnFilesOrInTheOutputIsRefused() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        let site = folder.url.appending(path: "site")
        let settings = try folder.read("site/gallery.toml")
        let cases = [
            ("", "the cache folder is the site folder itself"),
            ("static", "the cache folder is static/, whose files would mix with the cache's"),
            ("content/cache", "the cache folder is inside content/"),
            ("public/cache", "the cache folder is inside the output folder, which would publish the cache"),
            ("..", "the cache folder holds the site folder"),
        ]
        for (cache, message) in cases {
            try folder.write(settings.replacingOccurrences(of: "\ncache = \".gallery-cache\"", with: "\ncache = \"\(cache)\""), to: "site/gallery.toml")
            let run = try await GalleryBinary.run(["build"], in: site)
            #expect(run.status != 0, "\(cache)")
            let cacheLine = settings.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("cache = ") }.map { $0 + 1 } ?? 0
            #expect(run.stderr.contains("gallery.toml:\(cacheLine):1: error: \(message)"), "\(cache): \(run.stderr)")
            #expect(run.stderr.contains("name another with --cache or [build] cache"), "\(cache)")
            #expect(!folder.exists("site/public/index.html") && !folder.exists("site/static/builds"), "\(cache)")
        }
        // Given on the command line, the folder is named, not gallery.toml.
        try folder.write(settings, to: "site/gallery.toml")
        let given = try await GalleryBinary.run(["build", "--cache", "content"], in: site)
        #expect(given.status != 0)
        #expect(given.stderr.contains("\ncontent: error: the cache folder is content/"), "\(given.stderr)")
    }

    /// An absolute `[build] output` or `[build] cache` is taken as it is, as Hugo's `publishDir`,
    /// not inside the site folder.
    @Test func absoluteFoldersInSettingsAreAbsolute() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        let site = folder.url.appending(path: "site")
        let settings = try folder.read("site/gallery.toml")
        let output = folder.url.appending(path: "out").path, cache = folder.url.appending(path: "cache").path
        try folder.write(settings
            .replacingOccurrences(of: "\noutput = \"public\"", with: "\noutput = \"\(output)\"")
            .replacingOccurrences(of: "\ncache = \".gallery-cache\"", with: "\ncache = \"\(cache)\""), to: "site/gallery.toml")
        let run = try await GalleryBinary.run(["build", "-q"], in: site)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(folder.exists("out/index.html"))
        #expect(folder.exists("cache/builds") || folder.exists("cache/thumbnails"))
        #expect(!folder.exists("site/public") && !folder.exists("site/.gallery-cache"))
        #expect(!FileManager.default.fileExists(atPath: site.path + output))
        #expect(try await GalleryBinary.run(["check"], in: site).status == 0)
    }

    @Test func checkReadsTheOutputFolderAndBasePathFromTheSite() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")], config: "base_url = \"https://example.org/music/\"\n[build]\noutput = \"docs\"\n")
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        // 404.html links from the base URL's path, which check learns from gallery.toml.
        #expect(try site.read("docs/404.html").contains("href=\"/music/assets/"))
        let run = try await GalleryBinary.run(["check"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let elsewhere = try await GalleryBinary.run(["check", "--site", site.url.path], in: site.url.deletingLastPathComponent())
        #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
        // Told another base path, it finds the 404 page's links broken.
        let wrong = try await GalleryBinary.run(["check", "docs", "--base-path", "/"], in: site.url)
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("docs/404.html:"), "\(wrong.stderr)")
        // Every broken link leads into /music/, which the folder does not hold: the base path to
        // give is said (a deployed copy checked with no record of its build found only errors).
        #expect(wrong.stderr.contains("note: every broken link leads into /music/, which docs does not hold; if the site was built for that path (published at /music/, as a GitHub project site is), check it with `gallery check --base-path /music/`"), "\(wrong.stderr)")
        // A path of two folders, with a space: the whole of it, as the links write it.
        #expect(try await GalleryBinary.run(["build", "-q", "--base-url", "/org/my%20repo/"], in: site.url).status == 0)
        let nested = try await GalleryBinary.run(["check", "docs", "--base-path", "/"], in: site.url)
        #expect(nested.stderr.contains("check it with `gallery check --base-path /org/my%20repo/`"), "\(nested.stderr)")
        #expect(try await GalleryBinary.run(["check", "docs", "--base-path", "/org/my%20repo/"], in: site.url).status == 0)
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let given = try await GalleryBinary.run(["check", "docs", "--base-url", "https://example.org/music"], in: site.url)
        #expect(given.status == 0, "\(given.stderr)")
        // A base that `gallery build` would refuse is refused here too.
        let ftp = try await GalleryBinary.run(["check", "docs", "--base-url", "ftp://example.org/music/"], in: site.url)
        #expect(ftp.status != 0)
        #expect(ftp.stderr.contains("--base-url \"ftp://example.org/music/\" is not an http or https URL"), "\(ftp.stderr)")
        let relative = try await GalleryBinary.run(["check", "docs", "--base-path", "music/"], in: site.url)
        #expect(relative.status != 0)
        #expect(relative.stderr.contains("--base-path \"music/\" must be a path that starts with /"), "\(relative.stderr)")
    }

    /// `static/` files are published as they are, unchecked by the build; check agrees, so a
    /// `build && check` job passes with a search console's verification file.
    @Test func checkLeavesStaticFilesUnchecked() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write("google-site-verification: google123.html\n", to: "static/google123.html")
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        #expect(try site.read("public/google123.html").hasPrefix("google-site-verification"))
        let run = try await GalleryBinary.run(["check"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        // The same file written by something else is checked, and faulted.
        try site.write("not xhtml\n", to: "public/other.html")
        let other = try await GalleryBinary.run(["check"], in: site.url)
        #expect(other.status != 0)
        #expect(other.stderr.contains("public/other.html:1:1: error:"), "\(other.stderr)")
        #expect(!other.stderr.contains("google123"), "\(other.stderr)")
    }

    @Test func checkRefusesWhatIsNotABuiltSite() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try FileManager.default.createDirectory(at: site.url.appending(path: "empty"), withIntermediateDirectories: true)
        let again = "build the site first, or name its output folder"
        let cases = [
            (["check"], "public: error: no such folder; \(again)"),
            (["check", "empty"], "empty: error: no page to check (no .html file); \(again)"),
            (["check", "content"], "content: error: no page to check (no .html file); \(again)"),
            (["check", "content/albums.json"], "content/albums.json: error: this is a file; name the output folder of a built site"),
        ]
        for (arguments, message) in cases {
            let run = try await GalleryBinary.run(arguments, in: site.url)
            #expect(run.status != 0, "\(arguments)")
            #expect(run.stderr == message + "\n", "\(arguments)")
        }
    }
}
