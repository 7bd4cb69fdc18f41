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
    func runStep(_ script: String, in site: URL, output: URL? = nil, baseURL: String = "https://someone.github.io/albums") async throws -> GalleryBinary.Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-euo", "pipefail", "-c", script]
        process.currentDirectoryURL = site
        process.environment = ["BASE_URL": baseURL, "PATH": "/usr/bin:/bin", "GITHUB_OUTPUT": output?.path ?? "/dev/null"]
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
        // The newest cache of the same inputs (the archive, local covers, settings) is restored,
        // else the newest; the build's cache is saved under a key of its own (a key is never
        // saved over, so with one key per input a weekly --refresh's new covers were dropped),
        // and only when the summary says the build changed it (every run uploaded it all).
        let inputs = "gallery-cache-${{ hashFiles('content/albums.json', 'content/covers/**', 'gallery.toml') }}"
        func step(_ action: String, path: String) -> [String: Any]? {
            steps.first { $0["uses"] as? String == action && ($0["with"] as? [String: Any])?["path"] as? String == path }
        }
        let restore = try #require(step("actions/cache/restore@v4", path: ".gallery-cache"))
        let restoreKeys = ((restore["with"] as? [String: Any])?["restore-keys"] as? String ?? "").split(separator: "\n").map(String.init)
        #expect((restore["with"] as? [String: Any])?["path"] as? String == ".gallery-cache")
        #expect(restoreKeys == [inputs + "-", "gallery-cache-"], "\(restoreKeys)")
        let save = try #require(step("actions/cache/save@v4", path: ".gallery-cache"))
        let key = (save["with"] as? [String: Any])?["key"] as? String ?? ""
        #expect(key.hasPrefix(inputs + "-") && key.contains("github.run_id") && key.contains("github.run_attempt"), "\(key)")
        #expect(save["if"] as? String == "always() && steps.build.outputs.cache-changed == 'true'")
        #expect(steps.firstIndex { $0["id"] as? String == "build" }.map { steps.index(after: $0) } == steps.firstIndex { ($0["with"] as? [String: Any])?["key"] as? String == key })
        // The binary is cached per commit of GALLERY_VERSION, so a moving branch is built again,
        // and saved as soon as it is built: actions/cache saves only when the whole job passes,
        // so a site build that failed cost the next run a compile of the tool.
        let tool = try #require(step("actions/cache/restore@v4", path: ".gallery-tool"))
        #expect(((tool["with"] as? [String: Any])?["key"] as? String)?.contains("steps.version.outputs.commit") == true)
        #expect(!steps.contains { ($0["uses"] as? String)?.hasPrefix("actions/cache@") == true })
        let toolSave = try #require(step("actions/cache/save@v4", path: ".gallery-tool"))
        #expect((toolSave["with"] as? [String: Any])?["key"] as? String == "${{ steps.tool.outputs.cache-primary-key }}")
        #expect(toolSave["if"] as? String == "steps.tool.outputs.cache-hit != 'true'")
        let compile = try #require(steps.firstIndex { ($0["run"] as? String)?.contains("swift build -c release") == true })
        #expect(steps.index(after: compile) == steps.firstIndex { ($0["with"] as? [String: Any])?["path"] as? String == ".gallery-tool" && $0["uses"] as? String == "actions/cache/save@v4" })
        let upload = steps.first { ($0["uses"] as? String)?.hasPrefix("actions/upload-pages-artifact") == true }
        #expect((upload?["with"] as? [String: Any])?["path"] as? String == "public")
        // Covers in Git LFS are checked out as files, not pointers; checkout stops when git-lfs
        // is missing, and the Swift images lack it, so a step before installs it.
        let checkoutIndex = try #require(steps.firstIndex { ($0["uses"] as? String)?.hasPrefix("actions/checkout") == true })
        #expect((steps[checkoutIndex]["with"] as? [String: Any])?["lfs"] as? Bool == true)
        #expect(steps[..<checkoutIndex].contains { ($0["run"] as? String)?.contains("apt-get install") == true && ($0["run"] as? String)?.contains(" git-lfs ") == true })
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
        let outputs = folder.url.appending(path: "github-output")
        try folder.write("", to: "github-output")
        let run = try await runStep(script, in: site, output: outputs)
        #expect(run.status == 0)
        let summary = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(summary?["event"] as? String == "summary")
        #expect(summary?["succeeded"] as? Bool == true)
        // A first build made thumbnails: the cache is saved. The next one changes nothing in it.
        #expect(try folder.read("github-output") == "cache-changed=true\n")
        try folder.write("", to: "github-output")
        #expect(try await runStep(script, in: site, output: outputs).status == 0)
        #expect(try folder.read("github-output") == "", "an unchanged cache is not saved again")
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
        // No base URL from Pages (Pages not set to deploy from Actions) fails the step, rather
        // than building for / with a 404 page broken under the project's path.
        let unset = try await runStep(script, in: site, baseURL: "")
        #expect(unset.status != 0)
        #expect(unset.stderr.contains("configure-pages gave no base URL"), "\(unset.stderr)")
        // A failed build fails the step and says why in the job's log, not only in the file.
        try folder.write("[thumbnails]\nquality = 800\n", to: "site/gallery.toml")
        let failed = try await runStep(script, in: site)
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("gallery.toml:2:1: error: [thumbnails] quality is 800; it must be from 1 to 100"), "\(failed.stderr)")
        // The summary of the failed build is in the log too.
        let failure = try JSONSerialization.jsonObject(with: Data(failed.stdout.utf8)) as? [String: Any]
        #expect(failure?["event"] as? String == "summary" && failure?["succeeded"] as? Bool == false, "\(failed.stdout)")
    }

    /// The steps that find gallery's commit and fetch its source, run against a local repository
    /// in place of GitHub's: a tag, annotated or not, or a branch, each named exactly.
    @Test(arguments: ["v0.1.0", "v0.2.0", "main"])
    func itsFetchStepsPinTheCommitATagOrABranchNames(_ version: String) async throws {
        let workflow = try await load()
        let steps = ((workflow["jobs"] as? [String: Any])?["build"] as? [String: Any])?["steps"] as? [[String: Any]] ?? []
        let find = try #require(steps.first { $0["name"] as? String == "Find gallery's commit" }?["run"] as? String)
        let fetch = try #require(steps.first { $0["name"] as? String == "Fetch gallery's source" }?["run"] as? String)
        #expect(steps.first { $0["name"] as? String == "Fetch gallery's source" }?["if"] as? String == "steps.tool.outputs.cache-hit != 'true'")
        let folder = try TemporaryFolder()
        let git = { (arguments: [String]) async throws -> String in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-c", "user.email=ci@example.org", "-c", "user.name=CI", "-C", folder.url.appending(path: "gallery").path] + arguments
            let run = try await GalleryBinary.captured(process)
            #expect(run.status == 0, "git \(arguments): \(run.stderr)")
            return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        try FileManager.default.createDirectory(at: folder.url.appending(path: "gallery"), withIntermediateDirectories: true)
        _ = try await git(["init", "--quiet", "--initial-branch", "main"])
        _ = try await git(["commit", "--quiet", "--allow-empty", "-m", "first"])
        let first = try await git(["rev-parse", "HEAD"])
        // An annotated tag (its own object, which ls-remote lists first) and a lightweight one.
        _ = try await git(["tag", "--annotate", "v0.1.0", "-m", "release"])
        _ = try await git(["tag", "v0.2.0"])
        // A branch whose name ends as main's does, which ls-remote's pattern also matched.
        _ = try await git(["commit", "--quiet", "--allow-empty", "-m", "feature"])
        _ = try await git(["branch", "feature/main"])
        let feature = try await git(["rev-parse", "HEAD"])
        _ = try await git(["reset", "--quiet", "--hard", first])
        _ = try await git(["commit", "--quiet", "--allow-empty", "-m", "second"])
        let main = try await git(["rev-parse", "HEAD"])
        #expect(Set([first, feature, main]).count == 3)

        let output = folder.url.appending(path: "github-output")
        try folder.write("", to: "github-output")
        let temp = folder.url.appending(path: "runner-temp")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        let run = { (script: String, commit: String?) async throws -> GalleryBinary.Run in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-e", "-c", script]
            process.currentDirectoryURL = folder.url
            process.environment = [
                "PATH": "/usr/bin:/bin", "HOME": folder.url.path, "GALLERY_VERSION": version, "GALLERY_REPOSITORY": "file://" + folder.url.appending(path: "gallery").path,
                "GITHUB_OUTPUT": output.path, "RUNNER_TEMP": temp.path, "COMMIT": commit ?? "",
            ]
            return try await GalleryBinary.captured(process)
        }
        let found = try await run(find, nil)
        #expect(found.status == 0, "\(found.stdout)\(found.stderr)")
        let commit = try folder.read("github-output").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(commit == "commit=" + (version == "main" ? main : first))
        let fetched = try await run(fetch, String(commit.dropFirst("commit=".count)))
        #expect(fetched.status == 0, "\(fetched.stdout)\(fetched.stderr)")
        #expect(FileManager.default.fileExists(atPath: temp.appending(path: "gallery/.git").path))
        // A commit that is not what the name holds now stops the job, naming what to do.
        let moved = try await run(fetch, feature)
        #expect(moved.status != 0)
        #expect(moved.stdout.contains("::error::\(version) moved while this ran; run the job again"), "\(moved.stdout)")
        // A name that is no tag or branch.
        try folder.write("", to: "github-output")
        let missing = try await run(find.replacingOccurrences(of: "$GALLERY_VERSION", with: "v9"), nil)
        #expect(missing.status != 0)
        #expect(missing.stdout.contains("::error::gallery's repository has no branch or tag 'v9'"), "\(missing.stdout)")
    }
}
