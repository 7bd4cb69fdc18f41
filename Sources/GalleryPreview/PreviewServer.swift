import Foundation
import GalleryKit
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The preview server behind `gallery serve`: builds the site, serves the output folder over
/// HTTP, rebuilds when the inputs change and reloads the open pages.
///
/// It runs three services in one `ServiceGroup`: the HTTP server, the ``SiteWatcher`` and the
/// ``LiveReloadHub``. SIGINT or SIGTERM shuts them down gracefully in reverse order: the hub closes
/// the pages' live-reload sockets, the watcher lets a rebuild under way finish, then the server closes
/// its connections; ``run()`` then returns normally.
public struct PreviewServer: Sendable {
    /// How the server is set up.
    public struct Configuration: Sendable {
        /// How each build runs (site folder, output folder, strictness, fetch mode…). Without an
        /// output folder the site is built into ``PreviewServer/previewFolder(of:)``.
        public var options: BuildOptions
        /// The address to bind: loopback unless the user exposes it deliberately.
        public var host = "127.0.0.1"
        /// The port; 0 picks a free one (the announced URL says which).
        public var port = 1313
        /// Whether a free port is taken when ``port`` is in use (as Hugo's server does when its
        /// default port is taken): for the default port, not for one the user asked for.
        public var fallsBackToAFreePort = false
        /// Poll the inputs at this interval instead of listening for the kernel's events
        /// (`--poll`, for file systems that send none, such as some network mounts).
        public var poll: Duration?

        /// A configuration.
        public init(options: BuildOptions, host: String = "127.0.0.1", port: Int = 1313, poll: Duration? = nil, fallsBackToAFreePort: Bool = false) {
            self.options = options
            self.host = host
            self.port = port
            self.poll = poll
            self.fallsBackToAFreePort = fallsBackToAFreePort
        }
    }

    /// The setup.
    public var configuration: Configuration
    /// Where build progress and diagnostics go.
    public var observer: any BuildObserving
    /// Where the server's own messages go (standard error, for a terminal).
    public var log: @Sendable (String) -> Void
    /// Told the URL once the server listens (standard output, so scripts can read it).
    public var announce: @Sendable (String) -> Void

    /// A server.
    public init(
        configuration: Configuration,
        observer: any BuildObserving,
        log: @escaping @Sendable (String) -> Void,
        announce: @escaping @Sendable (String) -> Void
    ) {
        self.configuration = configuration
        self.observer = observer
        self.log = log
        self.announce = announce
    }

    /// Builds, then serves until SIGINT or SIGTERM. A failed first build does not stop it: the
    /// pages show the error overlay until a good save.
    public func run() async throws {
        Self.unblockShutdownSignals()
        let state = PreviewState()
        let hub = LiveReloadHub()
        var options = configuration.options
        if options.output == nil { options.output = Self.previewFolder(of: options.site) }
        var builder = PreviewBuilder(options: options, state: state, hub: hub, observer: observer, log: log)
        // Watching starts before the first build, so a save made while it runs is seen.
        let changes = SiteChanges(site: configuration.options.site, poll: configuration.poll)
        if configuration.poll == nil, case .polling = changes.mode {
            log("serve: cannot watch for file events here; polling the site's files instead")
        }
        let baseline = changes.token()
        await builder.build()

        if !Self.isLoopback(configuration.host) {
            log("serve: listening on \(configuration.host): anyone who can reach this machine can see the site")
        }
        do {
            try await serve(on: configuration.port, state: state, hub: hub, builder: builder, changes: changes, baseline: baseline)
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            guard configuration.fallsBackToAFreePort else {
                throw AddressInUse(host: configuration.host, port: configuration.port)
            }
            log("serve: port \(configuration.port) is in use; serving on a free port instead")
            try await serve(on: 0, state: state, hub: hub, builder: builder, changes: changes, baseline: baseline)
        }
    }

    /// Serves the built site on `port` until SIGINT or SIGTERM, watching for changes.
    private func serve(on port: Int, state: PreviewState, hub: LiveReloadHub, builder: PreviewBuilder, changes: SiteChanges, baseline: UInt64) async throws {
        var logger = Logger(label: "gallery.serve")
        logger.logLevel = .warning
        let host = configuration.host
        let announce = self.announce
        let app = Application(
            responder: PreviewResponder(state: state, hub: hub),
            server: .http1WebSocketUpgrade(configuration: .init(ws: LiveReloadSocket.configuration)) { request, _, _ in
                LiveReloadSocket.upgrade(request, hub: hub)
            },
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? port
                announce("Serving " + Self.url(host: host, port: port, basePath: state.snapshot.basePath))
            },
            logger: logger
        )
        let group = ServiceGroup(
            services: [app, SiteWatcher(builder: builder, changes: changes, baseline: baseline), hub],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        try await group.run()
    }

    /// The port asked for is taken by another program.
    public struct AddressInUse: Error, CustomStringConvertible {
        /// The address asked for.
        public var host: String
        /// The port asked for.
        public var port: Int

        public var description: String {
            "port \(port) on \(host) is in use by another program (another gallery serve or hugo server?); pass another with --port N, or --port 0 for any free one"
        }
    }

    /// Where the preview is built unless told otherwise: `preview/` in the site's cache folder
    /// (`[build] cache`, `.gallery-cache/` by default).
    ///
    /// Not the published output, so previewing never rewrites `public/` behind a deploy's back;
    /// and always the same folder, so restarting the server rebuilds incrementally.
    public static func previewFolder(of site: SiteFolder) -> URL {
        let cache = (try? SiteConfig.load(from: site))?.config.build.cache ?? SiteConfig().build.cache
        return site.folder(configured: cache).appending(path: "preview", directoryHint: .isDirectory).standardizedFileURL
    }

    /// Unblocks SIGINT and SIGTERM for the calling thread, before the handlers are installed.
    ///
    /// A process inherits its parent's signal mask: one started from a thread that blocks them (a
    /// test runner's worker, some process supervisors) would otherwise never see Ctrl-C.
    static func unblockShutdownSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// The site's URL on a host and port (IPv6 addresses in brackets).
    public static func url(host: String, port: Int, basePath: String) -> String {
        let name = host.contains(":") ? "[\(host)]" : host
        return "http://\(name):\(port)\(basePath)"
    }

    /// Whether a host name or address is the loopback interface.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
