import Foundation
import Testing

/// The GitHub Actions workflow in docs/: its shape, and its build step run for real.
@Suite struct WorkflowTests {
    static let workflow = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "docs/gallery-pages.yml")

    /// The workflow as JSON, read by PyYAML (what GitHub's parser accepts, PyYAML accepts).
    func load() async throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))", Self.workflow.path]
        let run = try await GalleryBinary.captured(process)
        #expect(run.status == 0, "PyYAML could not read the workflow")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    /// Runs a step's `run:` script as Actions' bash does, in `site`, with Pages' base URL of a
    /// project site.
    func runStep(_ script: String, in site: URL) async throws -> GalleryBinary.Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-euo", "pipefail", "-c", script]
        process.currentDirectoryURL = site
        process.environment = ["BASE_URL": "https://someone.github.io/albums", "PATH": "/usr/bin:/bin"]
        return try await GalleryBinary.captured(process)
    }

    @Test func buildsOnAlbumChangesCachesCoversAndPublishesToPages() async throws {
        let workflow = try await load()
        // PyYAML reads the bare key `on` as the boolean true.
        let triggers = try #require((workflow["on"] ?? workflow["true"]) as? [String: Any])
        let paths = (triggers["push"] as? [String: Any])?["paths"] as? [String] ?? []
        #expect(paths.contains("content/**") && paths.contains("gallery.toml") && paths.contains("static/**"))
        let jobs = try #require(workflow["jobs"] as? [String: Any])
        let build = try #require(jobs["build"] as? [String: Any])
        let steps = try #require(build["steps"] as? [[String: Any]])
        #expect(steps.contains { $0["run"] as? String == ".gallery-tool/gallery env" })
        let cache = steps.first { ($0["with"] as? [String: Any])?["path"] as? String == ".gallery-cache" }
        #expect(cache?["uses"] as? String == "actions/cache@v4")
        // A new cache is saved when what it is made from changes, not only the archive.
        let key = (cache?["with"] as? [String: Any])?["key"] as? String ?? ""
        #expect(key.contains("'content/albums.json'") && key.contains("'content/covers/**'") && key.contains("'gallery.toml'"), "\(key)")
        // The binary is cached per commit of GALLERY_VERSION, so a moving branch is built again.
        let tool = steps.first { ($0["with"] as? [String: Any])?["path"] as? String == ".gallery-tool" }
        #expect(((tool?["with"] as? [String: Any])?["key"] as? String)?.contains("steps.version.outputs.commit") == true)
        let upload = steps.first { ($0["uses"] as? String)?.hasPrefix("actions/upload-pages-artifact") == true }
        #expect((upload?["with"] as? [String: Any])?["path"] as? String == "public")
        // Covers in Git LFS are checked out as files, not pointers.
        let checkout = steps.first { ($0["uses"] as? String)?.hasPrefix("actions/checkout") == true }
        #expect((checkout?["with"] as? [String: Any])?["lfs"] as? Bool == true)
        // A weekly run revalidates remote covers.
        #expect(triggers["schedule"] != nil)
        let deploy = (jobs["deploy"] as? [String: Any])?["steps"] as? [[String: Any]]
        #expect(deploy?.first?["uses"] as? String == "actions/deploy-pages@v4")
    }

    @Test func itsBuildStepBuildsASiteForAProjectSubPath() async throws {
        let workflow = try await load()
        let steps = ((workflow["jobs"] as? [String: Any])?["build"] as? [String: Any])?["steps"] as? [[String: Any]] ?? []
        let script = try #require(steps.first { $0["name"] as? String == "Build the site" }?["run"] as? String)
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        let site = folder.url.appending(path: "site")
        try FileManager.default.createDirectory(at: site.appending(path: ".gallery-tool"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: site.appending(path: ".gallery-tool/gallery"), withDestinationURL: GalleryBinary.url)
        let run = try await runStep(script, in: site)
        #expect(run.status == 0)
        let summary = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(summary?["event"] as? String == "summary")
        #expect(summary?["succeeded"] as? Bool == true)
        let notFound = try folder.read("site/public/404.html")
        #expect(notFound.contains("href=\"/albums/assets/gallery."))
        #expect(try folder.read("site/public/sitemap.xml").contains("<loc>https://someone.github.io/albums/albums/sting-nothing-like-the-sun/</loc>"))
        // Served from /albums/, every link resolves: relative ones anywhere, the 404 page's under the base path.
        let check = try await GalleryBinary.run(["check", "public", "--base-path", "/albums/"], in: site)
        #expect(check.status == 0, "\(check.stderr)")
        // The workflow's own check step passes on what its build step wrote.
        let checkStep = try #require(steps.first { $0["name"] as? String == "Check the site" }?["run"] as? String)
        let checked = try await runStep(checkStep, in: site)
        #expect(checked.status == 0, "\(checked.stderr)")
        // A plain `gallery check` after the step checks the output as that build wrote it: it
        // failed with six broken links on the 404 page, as gallery.toml's base_url is "/".
        let plain = try await GalleryBinary.run(["check"], in: site)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout.hasPrefix("checked public (built for https://someone.github.io/albums/, as the last build said): "), "\(plain.stdout)")
        // A base path given still wins.
        #expect(try await GalleryBinary.run(["check", "--base-path", "/"], in: site).status != 0)
        // A failed build fails the step and says why in the job's log, not only in the file.
        try folder.write("[thumbnails]\nquality = 800\n", to: "site/gallery.toml")
        let failed = try await runStep(script, in: site)
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("gallery.toml:2:1: error: [thumbnails] quality is 800; it must be from 1 to 100"), "\(failed.stderr)")
        // The summary of the failed build is in the log too.
        let failure = try JSONSerialization.jsonObject(with: Data(failed.stdout.utf8)) as? [String: Any]
        #expect(failure?["event"] as? String == "summary" && failure?["succeeded"] as? Bool == false, "\(failed.stdout)")
    }
}
