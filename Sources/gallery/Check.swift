import ArgumentParser
import Foundation
import GalleryKit

/// `gallery check [DIR]`: the build's validation, on a folder that already exists.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate an output folder (default: the site's output, public/) as the build does; exit non-zero on any finding.",
        discussion: """
        Run in a site folder (or with --site), it checks the folder `gallery build` writes to and \
        resolves links that start with `/` against the path of the base URL the last build into \
        it used (its --base-url, else gallery.toml's base_url); --base-path or --base-url say \
        otherwise. Files the site's static/ \
        folder publishes as they are are not checked, as the build does not check them.
        """
    )

    @Argument(help: ArgumentHelp("The folder to check (default: [build] output of the site, else public).", valueName: "DIR"))
    var directory: String?

    @OptionGroup var siteOptions: SiteOptions

    @Option(name: .long, help: ArgumentHelp("The path part of the site's base URL, for links that start with / (default: the last build's into this folder, else from gallery.toml's base_url).", valueName: "PATH"))
    var basePath: String?

    @Option(name: .long, help: ArgumentHelp("The URL the site is published under, as `gallery build --base-url` took it; its path is the base path.", valueName: "URL"))
    var baseURL: String?

    @Flag(name: .shortAndLong, help: "Print only the findings: nothing when there are none.")
    var quiet = false

    func validate() throws {
        if basePath != nil, baseURL != nil {
            throw ValidationError("give --base-path or --base-url, not both")
        }
        // The same rules as `gallery build --base-url`: a check under another base than the
        // build would accept proves nothing.
        if let baseURL, let problem = SiteConfig.baseURLProblem(baseURL) {
            throw ValidationError("--base-url \(problem)")
        }
        if let basePath, !basePath.hasPrefix("/") || SiteConfig.baseURLProblem(basePath) != nil {
            throw ValidationError("--base-path \"\(basePath)\" must be a path that starts with /, such as /albums/, with no spaces, query or fragment")
        }
    }

    func run() throws {
        let site = siteOptions.folder
        // The site's settings say where the build writes and under which path; a folder that is
        // not a site has none, and then `public` and `/` stand.
        var config: SiteConfig
        do throws(ArchiveError) {
            config = try SiteConfig.load(from: site).config
        } catch {
            Diagnostic.print(error.diagnostics)
            throw ExitCode.failure
        }
        let folder = directory.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? site.output(configured: config.build.output, override: nil)
        let display = directory ?? SiteFolder.display(folder)
        var builtFor: String?
        if let given = basePath ?? baseURL {
            config.baseURL = SiteConfig.normalizedBaseURL(given)
        } else if let recorded = BuildManifest.recordedBaseURL(for: folder, cache: site.folder(configured: config.build.cache)), recorded != config.baseURL {
            // Built with `--base-url` (as the README's workflow does): its pages link from there.
            config.baseURL = recorded
            builtFor = recorded
        }
        let report: (diagnostics: [Diagnostic], pages: Int, files: Int)
        do {
            report = try OutputChecker.inspect(outputFolder: folder, basePath: config.basePath, displayPrefix: display, publishedAsIs: site.staticPaths())
        } catch {
            Diagnostic.print([.error(error.message, path: error.path)])
            throw ExitCode.failure
        }
        let diagnostics = report.diagnostics
        // A folder inside the site (`public/albums`) has every page's links to the rest climb
        // out of it: a few of those show what happened, and the rest come to one line that says
        // which folder to check.
        let climbs = { (diagnostic: Diagnostic) in diagnostic.message.hasSuffix("climbs above the output root") }
        let climbing = diagnostics.count(where: climbs)
        var climbsShown = 0
        Diagnostic.print(diagnostics.filter { diagnostic in
            guard climbing > 10, climbs(diagnostic) else { return true }
            climbsShown += 1
            return climbsShown <= 10
        })
        if climbing > 10 {
            let parent = Self.siteRoot(above: folder).map { " (`gallery check \(shellWord(SiteFolder.display($0)))`)" } ?? ""
            StandardStreams.error("note: \(climbing - 10) more links climb above \(display) the same way; is it a folder inside the site? Check the folder the site was built into\(parent)\n")
        }
        if !diagnostics.isEmpty {
            if !quiet {
                StandardStreams.error("\(diagnostics.count) finding\(diagnostics.count == 1 ? "" : "s") in \(display)\n")
                if let base = Self.likelyBasePath(diagnostics, folder: folder) {
                    StandardStreams.error("note: every broken link leads into \(base), which \(display) does not hold; if the site was built for that path (published at \(base), as a GitHub project site is), check it with `gallery check --base-path \(base)`\n")
                }
                // Outside a site, nothing says which files its static/ folder published as they
                // are (a search console's token page is no XHTML), nor its base path.
                if !Library(site: site).store.exists {
                    let flag = siteOptions.site == "." ? "--site DIR" : "--site"
                    StandardStreams.error("note: \(siteOptions.site == "." ? "this folder" : SiteFolder.display(site.root)) is no site folder; run gallery check in the site the output was built from (or give \(flag)), so the files its static/ folder publishes as they are are not checked as pages, and its base path is known\n")
                }
            }
            throw ExitCode.failure
        }
        if !quiet {
            let base = builtFor.map { " (built for \($0), as the last build said)" } ?? ""
            StandardStreams.output("checked \(display)\(base): \(report.pages) page\(report.pages == 1 ? "" : "s") and \(report.files - report.pages) other file\(report.files - report.pages == 1 ? "" : "s"), no findings\n")
        }
    }

    /// The folders every broken link leads into (`/org/repo/`), as the links write them (a
    /// space as `%20`), when `folder` has nothing at the first of them: a site built for that
    /// path and checked as if at `/` (a copy of the published folder, with no record of its
    /// build), whose every root-relative link misses, and the advice to run the check in the
    /// site did not help.
    static func likelyBasePath(_ diagnostics: [Diagnostic], folder: URL) -> String? {
        var common: [Substring]?
        var count = 0
        for diagnostic in diagnostics where diagnostic.message.hasPrefix("broken ") {
            // `broken link to '/repo/assets/x.css' (no such file …)`: the reference as written.
            guard let open = diagnostic.message.range(of: " '/"),
                  let close = diagnostic.message[open.upperBound...].firstIndex(of: "'") else { return nil }
            let reference = diagnostic.message[open.upperBound..<close].prefix { $0 != "?" && $0 != "#" }
            // Its folders: all but what follows the last slash.
            let folders = reference.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            common = common.map { Array(zip($0, folders).prefix { $0 == $1 }.map(\.0)) } ?? Array(folders)
            count += 1
        }
        guard count >= 3, let common, let first = common.first, !first.isEmpty,
              let decoded = String(first).removingPercentEncoding,
              !FileManager.default.fileExists(atPath: folder.appending(path: decoded).path) else { return nil }
        return "/" + common.joined(separator: "/") + "/"
    }

    /// The nearest folder above `folder` (up to four levels) that holds an `index.html`: the
    /// site's output root, when `folder` is one of its subfolders.
    static func siteRoot(above folder: URL) -> URL? {
        var candidate = folder.standardizedFileURL
        for _ in 0..<4 {
            let parent = candidate.deletingLastPathComponent()
            guard parent.path != candidate.path else { return nil }
            if FileManager.default.fileExists(atPath: parent.appending(path: "index.html").path) { return parent }
            candidate = parent
        }
        return nil
    }
}
