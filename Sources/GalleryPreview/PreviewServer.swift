import Foundation
import GalleryKit
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import UnixSignals

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The preview server behind `gallery serve`: listens, builds the site, serves the output folder
/// over HTTP, rebuilds when the inputs change and reloads the open pages.
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
        /// How long a connection may wait to send its first request's head, and then each next
        /// request, or leave its answer unread, before the server closes it (`--idle-timeout`).
        /// Browsers open connections in case they need them and reconnect at once when one is
        /// closed.
        public var idleTimeout: Duration

        /// The idle timeout unless one is given: nginx's `keepalive_timeout` is 75 s.
        public static let defaultIdleTimeout = Duration.seconds(60)

        /// A configuration.
        public init(options: BuildOptions, host: String = "127.0.0.1", port: Int = 1313, poll: Duration? = nil, fallsBackToAFreePort: Bool = false, idleTimeout: Duration = defaultIdleTimeout) {
            self.options = options
            self.host = host
            self.port = port
            self.poll = poll
            self.fallsBackToAFreePort = fallsBackToAFreePort
            self.idleTimeout = idleTimeout
        }
    }

    /// The setup.
    public var configuration: Configuration
    /// Where build progress and diagnostics go.
    public var observer: any BuildObserving
    /// Where the server's own messages go (standard error, for a terminal).
    public var log: @Sendable (String) -> Void
    /// Where the lines that only tell how the server runs go ("Ctrl-C stops it", "stopping"):
    /// by default with the others; `gallery serve --quiet` drops them.
    public var status: (@Sendable (String) -> Void)?
    /// Told the URL once the server listens (standard output, so scripts can read it).
    public var announce: @Sendable (String) -> Void
    /// Called when the server, told to stop, has waited ``shutdownGrace`` for connections that
    /// do not end (`gallery serve` exits then); `nil` waits for them however long they last.
    ///
    /// The HTTP server waits for every connection to finish its request, and one that never
    /// sends a whole request (a browser's speculative connection, opened in case it is needed;
    /// a client that stopped half-way) never does, nor does cancelling it stop the wait. By the
    /// time this is called the rebuilds and the pages' sockets have ended: only the server's
    /// wait is left.
    public var giveUpWaiting: (@Sendable () -> Void)?
    /// Called when Ctrl-C (or SIGTERM) comes again while the server is stopping, waiting for a
    /// rebuild under way (a big site's takes seconds): `gallery serve` exits at once then, as
    /// a second Ctrl-C does in most servers. `nil` ignores it, and so does a server with no
    /// rebuild under way, whose stop ends by itself soon (GNU `timeout` signals the server and
    /// its process group, which is two signals at once).
    public var stopNow: (@Sendable () -> Void)?

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

    /// Listens, builds, then serves until SIGINT or SIGTERM. An address it cannot listen on is
    /// a ``ListenError`` before anything is built; a failed first build does not stop it: the
    /// pages show the error overlay until a good save.
    public func run() async throws {
        Self.unblockShutdownSignals()
        let address = try ListenAddress(configuration.host)
        let state = PreviewState()
        let hub = LiveReloadHub()
        var options = configuration.options
        if options.output == nil { options.output = Self.previewFolder(of: options.site) }
        // Each rebuild prints only the warnings that are new; the rest are counted.
        let filter = RepeatedWarningFilter(next: observer, log: log)
        let builder = PreviewBuilder(options: options, state: state, hub: hub, observer: filter, log: log)
        // Watching starts before the first build, so a save made while it runs is seen.
        let changes = SiteChanges(site: configuration.options.site, poll: configuration.poll)
        if configuration.poll == nil, case .polling = changes.mode {
            log("serve: cannot watch for file events here; polling the site's files instead")
        }
        do {
            try await serve(address, on: configuration.port, state: state, hub: hub, builder: builder, changes: changes, reportChange: filter.noteChange)
        } catch let error as IOError where error.errnoCode == EADDRINUSE && configuration.fallsBackToAFreePort {
            log("serve: port \(configuration.port) is in use; serving on a free port instead")
            do {
                try await serve(address, on: 0, state: state, hub: hub, builder: builder, changes: changes, reportChange: filter.noteChange)
            } catch let error as IOError {
                throw address.error(binding: 0, error)
            }
        } catch let error as IOError {
            throw address.error(binding: configuration.port, error)
        }
    }

    /// Listens on `port`, then builds the site and serves it until SIGINT or SIGTERM, watching
    /// for changes. A bind that fails throws before anything is built.
    private func serve(_ address: ListenAddress, on port: Int, state: PreviewState, hub: LiveReloadHub, builder: PreviewBuilder, changes: SiteChanges, reportChange: @escaping @Sendable (String?) -> Void) async throws {
        var logger = Logger(label: "gallery.serve")
        logger.logLevel = .warning
        let announce = self.announce
        let log = self.log
        let status = self.status ?? log
        let (listening, listeningContinuation) = AsyncStream.makeStream(of: Int.self)
        let isListening = Flag()
        let isStopping = Flag()
        defer { listeningContinuation.finish() }
        let idleTimeout = configuration.idleTimeout.timeAmount
        let app = Application(
            responder: PreviewResponder(state: state, hub: hub, origin: RequestOrigin(listeningOn: address)),
            server: HTTPServerBuilder { responder in
                AnsweringMalformedRequests(firstRequestDeadline: idleTimeout, inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder,
                    configuration: .init(
                        http1: .init(additionalChannelHandlers: [HTTP1Handlers { [IdleConnectionTimeout(timeout: idleTimeout), ConnectionClose()] }], idleTimeout: nil),
                        ws: LiveReloadSocket.configuration
                    )
                ) { request, _, _ in
                    LiveReloadSocket.upgrade(request, hub: hub, origin: RequestOrigin(listeningOn: address))
                })
            },
            configuration: ApplicationConfiguration(address: .hostname(address.host, port: port), serverName: nil),
            onServerRunning: { channel in
                if address.isEverywhere {
                    log("serve: listening on all interfaces (\(address.host)): anyone who can reach this machine can see the site")
                } else if !address.isLoopback {
                    log("serve: listening on \(address.host): anyone who can reach this machine can see the site")
                }
                isListening.set()
                let bound = channel.localAddress?.port ?? port
                // Said before the first build, which may take minutes (covers to download): the
                // address, with --port 0 or a port picked for it, was known only once the site
                // was built (a QA pass). "Serving …" follows it, with the base path.
                status("serve: listening on \(Self.url(host: address.urlHost, port: bound, basePath: "/")); building the site first (a page asked for meanwhile is sent once it is built)")
                listeningContinuation.yield(bound)
                listeningContinuation.finish()
            },
            logger: logger
        )
        let firstBuild = SiteWatcher.FirstBuild(listening: listening) { port in
            let origin = Self.url(host: address.urlHost, port: port, basePath: "")
            state.update { $0.origin = origin }
            // Ctrl-C during the first build: the server is stopping, not starting to serve.
            guard !isStopping.isSet else { return }
            announce("Serving " + origin + state.snapshot.basePath)
            status("serve: Ctrl-C stops it")
        }
        // Shut down in reverse order: the notice first, then the pages' sockets, a rebuild under
        // way, and the server last.
        let server: any Service = giveUpWaiting.map { BoundedShutdown(server: app, grace: Self.shutdownGrace, giveUp: $0) } ?? app
        var watcher = SiteWatcher(builder: builder, changes: changes, baseline: 0, firstBuild: firstBuild)
        watcher.reportChange = reportChange
        let group = ServiceGroup(
            services: [server, watcher, hub, ShutdownNotice(log: status, isListening: isListening, isStopping: isStopping, isBuilding: { state.isBuilding }, stopNow: stopNow)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        try await group.run()
    }

    /// How long the server, told to stop, waits for open connections to end.
    public static let shutdownGrace = Duration.seconds(2)

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
        let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "http://\(name):\(port)\(basePath)"
    }
}

/// The HTTP server, with a limit on how long its shutdown waits for connections: past
/// `grace`, `giveUp` is called (see ``PreviewServer/giveUpWaiting``).
struct BoundedShutdown: Service {
    let server: any Service
    let grace: Duration
    let giveUp: @Sendable () -> Void

    func run() async throws {
        let (grace, giveUp) = (grace, giveUp)
        try await withGracefulShutdownHandler {
            try await server.run()
        } onGracefulShutdown: {
            let milliseconds = Int(grace.components.seconds * 1000 + grace.components.attoseconds / 1_000_000_000_000_000)
            // Not `.global()`: a rebuild's rendering may keep its threads busy past the grace.
            DispatchQueue(label: "gallery.shutdown-grace").asyncAfter(deadline: .now() + .milliseconds(milliseconds), execute: giveUp)
        }
    }
}

/// Says that the server is stopping as soon as Ctrl-C is pressed, before a rebuild under way
/// finishes and the connections close; not when it stops because it could not listen.
struct ShutdownNotice: Service {
    let log: @Sendable (String) -> Void
    let isListening: Flag
    /// Set as the server begins to stop, so a first build that ends afterwards announces nothing.
    let isStopping: Flag
    /// Whether a build is under way, which a second Ctrl-C cuts short.
    let isBuilding: @Sendable () -> Bool
    /// What a second Ctrl-C does (see ``PreviewServer/stopNow``).
    let stopNow: (@Sendable () -> Void)?

    func run() async {
        // Trapped before the first signal, so a second that comes quickly is not lost.
        let again = stopNow == nil ? nil : await UnixSignalsSequence(trapping: .sigint, .sigterm)
        try? await gracefulShutdown()
        isStopping.set()
        if isListening.isSet { log("serve: stopping") }
        // Outlives this service, which must return for the others to stop.
        if let again, let stopNow {
            let isBuilding = self.isBuilding
            Task.detached {
                // The first is the signal that began the stop. One that comes with no build
                // under way changes nothing: the stop ends by itself, with status 0.
                var count = 0
                for await _ in again {
                    count += 1
                    if count >= 2, isBuilding() {
                        stopNow()
                        return
                    }
                }
            }
        }
    }
}

/// A flag set once, from any thread.
final class Flag: Sendable {
    private let value = Mutex(false)

    /// Sets it.
    func set() { value.withLock { $0 = true } }

    /// Whether it was set.
    var isSet: Bool { value.withLock { $0 } }
}
