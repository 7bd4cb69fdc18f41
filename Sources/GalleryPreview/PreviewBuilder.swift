import Foundation
import GalleryKit

/// Runs the site's build for the preview (the same pipeline, options and incremental output as
/// `gallery build`) and tells the server and the open pages how it went.
public struct PreviewBuilder: Sendable {
    /// The options every build runs with; the output folder is pinned after the first good build,
    /// so an edit of `[build] output` cannot move the site away from under the server.
    public private(set) var options: BuildOptions
    /// The server's view of the latest build.
    public let state: PreviewState
    /// The open pages.
    public let hub: LiveReloadHub
    /// Where build progress and diagnostics go (the terminal).
    public let observer: any BuildObserving
    /// Where the preview's own messages go.
    public let log: @Sendable (String) -> Void
    /// Whether a build has succeeded yet, so a failure can say whether a good site is served.
    private var hasSucceeded = false
    /// Told of each build as soon as it ends, before the open pages are (the watcher takes the
    /// files it read then, so a save made once a page has reloaded is never taken for the
    /// state the build saw).
    public var onBuilt: (@Sendable (BuildState) -> Void)?

    /// A builder.
    public init(options: BuildOptions, state: PreviewState, hub: LiveReloadHub, observer: any BuildObserving, log: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.state = state
        self.hub = hub
        self.observer = observer
        self.log = log
    }

    /// Builds the site; on success updates the served state, and tells the open pages which
    /// build is served (pages of another build reload). On failure keeps the last good site
    /// served and shows the diagnostics in the terminal (through the observer) and over the pages.
    ///
    /// - Returns: The build's final state.
    @discardableResult
    public mutating func build() async -> BuildState {
        state.isBuilding = true
        let result = await BuildPipeline().run(options, observer: observer)
        state.isBuilding = false
        onBuilt?(result)
        let summary = result.summary
        if summary.succeeded {
            hasSucceeded = true
            if options.output == nil { options.output = result.outputFolder }
            let build = Self.buildID(of: result)
            let before = state.snapshot
            state.update {
                $0.failure = nil
                $0.goneSite = nil
                $0.build = build
                if before.build != nil, before.basePath != result.config.basePath {
                    $0.formerBasePath = before.basePath
                }
                $0.basePath = result.config.basePath
                $0.output = result.outputFolder
                if let move = result.movedAlbumPage { $0.recordMove(move) }
            }
            // A new base_url moves the site: say where to, as the first address said where it was.
            if before.build != nil, before.basePath != result.config.basePath, let origin = before.origin {
                log("serve: the site is now at " + origin + result.config.basePath)
            } else if before.build == nil, before.failure != nil, before.basePath != result.config.basePath, let origin = before.origin {
                // The first build failed before it read base_url (gallery.toml was broken), so the
                // address announced then lacked its path.
                log("serve: the site is at " + origin + result.config.basePath)
            }
            await hub.publish(LiveReloadEvent(build: build))
        } else {
            let diagnostics = result.diagnostics.filter { $0.severity == .error }
            let build = state.snapshot.build
            state.update {
                $0.failure = diagnostics
                if $0.output == nil { $0.output = result.outputFolder }
                // Before a first good build, the site's path as far as gallery.toml was read (the
                // default when it could not be), so the first address announced has it.
                if !hasSucceeded { $0.basePath = result.config.basePath }
            }
            await hub.publish(LiveReloadEvent(build: build, failure: diagnostics))
            // A site folder moved away took the last good build with it (the preview lives in its
            // cache): there is nothing to serve, and no save here brings it back; moving it
            // back does (the watcher sees it return).
            if !FileManager.default.fileExists(atPath: options.site.root.path) {
                state.update { $0.goneSite = options.site.root }
                log("serve: the site folder \(SiteFolder.display(options.site.root)) is gone (moved or deleted?), and with it the last good build; move it back to go on, or stop this server (Ctrl-C) and start gallery serve where the site is now")
            } else {
                log(hasSucceeded
                    ? "serve: still serving the last good build; the next good save rebuilds it"
                    : "serve: the pages show this error until a save fixes it")
            }
        }
        await state.firstBuild.open()
        return result
    }

    /// The id of a good build: a hash of every output's path and content hash, as its manifest
    /// records them. Derived from the output, not counted, so it means the same across restarts
    /// of the server: a page left open while the server was down reloads only if the site changed.
    public static func buildID(of result: BuildState) -> String {
        // A build that found everything up to date stopped before making a manifest of its own.
        let manifest = result.summary.upToDate ? result.previousManifest : result.manifest
        var parts: [UInt64] = []
        parts.reserveCapacity(manifest.entries.count * 2)
        for (path, entry) in manifest.entries.sorted(by: { $0.key < $1.key }) {
            parts.append(FastHash.hash(path))
            parts.append(entry.outputHash)
        }
        return FastHash.combine(parts).hex16
    }
}
