import ArgumentParser
import Foundation
import GalleryKit

/// `gallery build`: the site folder to a validated site in `public/`.
struct Build: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build the site into public/ (or --output), validating every page before it is written."
    )

    @OptionGroup var siteOptions: SiteOptions

    @OptionGroup var hugoFlags: HugoFlags

    @Option(name: .long, help: ArgumentHelp("Write the site here instead of [build] output (default public/).", valueName: "DIR"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Keep the cache (covers, thumbnails, the build's record) here instead of [build] cache (default .gallery-cache/); for a site checked out read-only.", valueName: "DIR"))
    var cache: String?

    @Flag(name: .long, help: "Fail the build on any warning, such as a cover that cannot be had.")
    var strict = false

    @Option(help: ArgumentHelp("Publish under this URL instead of base_url in gallery.toml (e.g. https://me.github.io/albums/).", valueName: "URL"))
    var baseURL: String?

    @Flag(help: "Ignore what the previous build left and write every output again.")
    var clean = false

    @Flag(help: "After a good build, remove from the cache what it did not use: thumbnails (of covers gone from the site, or of sizes, formats or qualities no longer asked for) and downloaded covers no album names any more.")
    var gc = false

    @Flag(help: "After a good build, remove the files of the output folder it did not write (hidden ones, such as .git/, are kept).")
    var cleanDestination = false

    @Flag(help: "Revalidate cached remote covers with the server (conditional requests).")
    var refresh = false

    @Flag(help: "Never touch the network: remote covers come from the cache only.")
    var offline = false

    @Flag(name: [.short, .long], help: "Print only warnings and errors.")
    var quiet = false

    @Flag(name: [.short, .long], help: "Also print how long each step took.")
    var verbose = false

    @Option(help: ArgumentHelp("How to report: text for people, json for one JSON event per line (CI).", valueName: "text|json"))
    var logFormat: LogFormat = .text

    /// How `gallery build` reports.
    enum LogFormat: String, ExpressibleByArgument {
        case text, json
    }

    func validate() throws {
        if refresh && offline { throw ValidationError("--refresh and --offline contradict each other; choose one.") }
        if quiet && verbose { throw ValidationError("--quiet and --verbose contradict each other; choose one.") }
        // As `gallery check --base-url` and any option it cannot read: a usage error (64), before
        // anything is done, not a failed build.
        if let baseURL {
            if baseURL.trimmingCharacters(in: .whitespaces).isEmpty {
                throw ValidationError("--base-url is empty (a variable that is not set?); give the site's address, such as https://example.org/albums/, or / for the top of any host, or leave the option out to use gallery.toml's base_url")
            }
            if let problem = SiteConfig.baseURLProblem(baseURL) { throw ValidationError("--base-url \(problem)") }
        }
    }

    func run() async throws {
        var options = BuildOptions(
            site: siteOptions.folder,
            output: output.map { URL(fileURLWithPath: $0, isDirectory: true) },
            strict: strict,
            clean: clean,
            baseURL: baseURL
        )
        options.fetchMode = offline ? .offline : refresh ? .refresh : .useCache
        options.gc = gc
        options.cleanDestination = cleanDestination
        options.cache = cache.map { URL(fileURLWithPath: $0, isDirectory: true) }
        let observer: any BuildObserving
        if logFormat == .json {
            let log = JSONLogReporter(quiet: quiet)
            // A cancelled CI job's log ends with a summary too (it ended with a cover event).
            StopSignals.beforeStopping = { log.stopped(by: $0) }
            observer = log
        } else {
            observer = ConsoleReporter(quiet: quiet, verbose: verbose)
        }
        StopSignals.removeStagingBeforeStopping()
        let state = await BuildPipeline().run(options, observer: observer)
        // Stopped by a signal meanwhile: its handler says so and ends the process as the signal asks.
        while StagingArea.isStopping { sleep(1) }
        // The process ends now: the albums, plan and manifest are left to the system rather than
        // freed object by object (about 5 ms of every build of 10k albums).
        _ = Unmanaged.passRetained(KeptUntilExit(state))
        if !state.summary.succeeded { throw ExitCode.failure }
    }
}

/// A value kept alive until the process exits, so its memory is never freed piece by piece.
private final class KeptUntilExit<Value>: Sendable where Value: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
