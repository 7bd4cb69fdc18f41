import ArgumentParser
import Foundation
import GalleryKit
import GalleryPreview

/// `gallery serve`: build, serve on loopback, rebuild on change, reload the browser.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build the site and preview it on http://127.0.0.1:1313/, rebuilding and reloading the browser on every change.",
        discussion: """
        Builds into .gallery-cache/preview/ (or --output), never into public/. Watches content/, static/, \
        templates/, assets/ and gallery.toml through the kernel's file events (--poll to poll \
        instead). A failed rebuild is printed here and \
        shown over the page in the browser; the last good site stays served. The reload script is \
        added only to the pages served, never to the files written. Ctrl-C stops the server.
        """
    )

    @OptionGroup var siteOptions: SiteOptions

    @OptionGroup var hugoFlags: HugoFlags

    @Option(name: .long, help: ArgumentHelp("Build the preview here (default: preview/ in the cache folder, .gallery-cache/preview/).", valueName: "DIR"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("The port to listen on (default: 1313, or a free one when 1313 is taken); 0 picks a free one.", valueName: "N"))
    var port: Int?

    @Option(name: .long, help: ArgumentHelp("The address to listen on. Only loopback is private: 0.0.0.0 shows the site to your network.", valueName: "HOST"))
    var host = "127.0.0.1"

    @Flag(help: "Never touch the network: remote covers come from the cache only.")
    var offline = false

    @Option(name: .long, help: ArgumentHelp("Poll the site's files at this interval (such as 700ms or 2s) instead of listening for file events: for file systems that send none, such as some network or container mounts.", valueName: "INTERVAL"))
    var poll: String?

    @Option(name: .long, help: ArgumentHelp("Close a connection that sends no request, or stops reading its answer, for this long (such as 60s, the default, or 500ms).", valueName: "INTERVAL"))
    var idleTimeout: String?

    @Flag(name: [.short, .long], help: "Print only warnings and errors.")
    var quiet = false

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535.") }
        guard !host.isEmpty else { throw ValidationError("--host needs an address, such as 127.0.0.1.") }
        for (option, text, example) in [("--poll", poll, "700ms or 2s"), ("--idle-timeout", idleTimeout, "500ms or 60s")] {
            if let text, Self.interval(text) == nil {
                throw ValidationError("\(option) needs an interval from 10ms to 3600s, in milliseconds or seconds (such as \(example)); '\(text)' is not one.")
            }
        }
    }

    /// An interval written as milliseconds (`700ms`) or seconds (`2s`, `1.5s`), at least 10 ms.
    static func interval(_ text: String) -> Duration? {
        let (digits, scale): (Substring, Double) = text.hasSuffix("ms") ? (text.dropLast(2), 1) : text.hasSuffix("s") ? (text.dropLast(1), 1000) : (Substring(text), 0)
        guard scale > 0, let value = Double(digits), value.isFinite, value * scale >= 10, value * scale <= 3_600_000 else { return nil }
        return .milliseconds(Int64((value * scale).rounded()))
    }

    func run() async throws {
        // Serving a folder that is no site would only answer 404s: say so, as build does.
        let store = Library(site: siteOptions.folder).store
        guard store.exists else {
            Diagnostic.print([store.missing])
            throw ExitCode.failure
        }
        var options = BuildOptions(site: siteOptions.folder, output: output.map { URL(fileURLWithPath: $0, isDirectory: true) })
        options.fetchMode = offline ? .offline : .useCache
        options.analytics = false
        // An --output no save can fix (the site's own templates/, the site folder) is refused
        // at once, as build refuses it, rather than served as an error page until Ctrl-C.
        if options.output != nil {
            let planned = BuildState(options: options)
            if let conflict = options.site.outputConflict(planned.outputFolder, cache: planned.cacheFolder) {
                Diagnostic.print([.error("\(conflict); preview the site in another folder with --output, or leave --output out (the preview then goes into the cache)", path: SiteFolder.display(planned.outputFolder))])
                throw ExitCode.failure
            }
        }
        var server = PreviewServer(
            configuration: .init(options: options, host: host, port: port ?? 1313, poll: poll.flatMap(Self.interval), fallsBackToAFreePort: port == nil,
                           idleTimeout: idleTimeout.flatMap(Self.interval) ?? PreviewServer.Configuration.defaultIdleTimeout),
            observer: ConsoleReporter(quiet: quiet),
            log: { StandardStreams.error($0 + "\n") },
            announce: { StandardStreams.output($0 + "\n") }
        )
        // --quiet leaves out the lines that only say how the server runs.
        if quiet { server.status = { _ in } }
        // Everything else has stopped by then: only connections that never sent a request are left.
        server.stopNow = {
            StandardStreams.error("serve: stopped at once, without waiting for the rebuild under way\n")
            Foundation.exit(130)
        }
        server.giveUpWaiting = {
            StandardStreams.error("serve: closed the connections that sent no request\n")
            Foundation.exit(0)
        }
        // The allocator keeps up to 256 MB of freed memory for a build's next large blocks
        // (AllocatorTuning); a server that runs for hours gives it back every few seconds.
        let releasing = Task.detached(priority: .background) {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(5))
                AllocatorTuning.releaseFreed()
            }
        }
        defer { releasing.cancel() }
        do {
            try await server.run()
        } catch let error as ListenError {
            StandardStreams.error("serve: error: \(error)\n")
            throw ExitCode.failure
        }
    }
}
