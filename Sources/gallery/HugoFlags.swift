import ArgumentParser

/// Hugo's names for what gallery calls otherwise, or does not do, on `build` and `serve`:
/// hidden, and each refused with gallery's way, so a script or habit brought from Hugo gets the
/// right fix rather than "Unknown option" (or a wrong guess: `--bind`, "did you mean --site?").
struct HugoFlags: ParsableArguments {
    @Option(name: [.customLong("baseURL"), .customShort("b")], help: .hidden) var baseURL: String?
    @Option(name: [.customLong("destination"), .customShort("d")], help: .hidden) var destination: String?
    @Option(name: [.customLong("source"), .customShort("s")], help: .hidden) var source: String?
    @Option(name: [.customLong("environment"), .customShort("e")], help: .hidden) var environment: String?
    @Option(name: .customLong("bind"), help: .hidden) var bind: String?
    @Flag(name: .customLong("cleanDestinationDir"), help: .hidden) var cleanDestinationDir = false
    @Flag(name: .customLong("minify"), help: .hidden) var minify = false
    @Flag(name: [.customLong("buildDrafts"), .customShort("D")], help: .hidden) var buildDrafts = false
    @Flag(name: .customLong("disableFastRender"), help: .hidden) var disableFastRender = false
    @Flag(name: .customLong("navigateToChanged"), help: .hidden) var navigateToChanged = false

    /// What to write instead of each Hugo flag given, one line each.
    var advice: [String] {
        [
            baseURL.map { _ in "--baseURL (-b) is Hugo's name: gallery build takes --base-url URL, and gallery serve serves at base_url's path" },
            destination.map { _ in "--destination (-d) is Hugo's name: write --output DIR" },
            source.map { _ in "--source (-s) is Hugo's name: write --site DIR" },
            environment.map { _ in "--environment (-e): gallery has no environments; gallery serve leaves out [analytics] by itself, and gallery build keeps them" },
            bind.map { _ in "--bind is Hugo's name: write --host ADDRESS" },
            cleanDestinationDir ? "--cleanDestinationDir is Hugo's name: write --clean-destination" : nil,
            minify ? "--minify: gallery writes pages as the templates make them (it shrinks its own CSS and JS); leave it out" : nil,
            buildDrafts ? "--buildDrafts (-D): gallery has no drafts; every album in content/albums.json is published, so keep unreleased ones out of it" : nil,
            disableFastRender ? "--disableFastRender: not needed, gallery serve's every rebuild is a full one (incremental); leave it out" : nil,
            navigateToChanged ? "--navigateToChanged: gallery serve has none; open pages reload where they are" : nil,
        ].compactMap { $0 }
    }

    func validate() throws {
        guard !advice.isEmpty else { return }
        throw ValidationError(advice.joined(separator: "\n"))
    }
}
