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

    /// A builder.
    public init(options: BuildOptions, state: PreviewState, hub: LiveReloadHub, observer: any BuildObserving, log: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.state = state
        self.hub = hub
        self.observer = observer
        self.log = log
    }

    /// Builds the site; on success updates the served state and, if any file changed or the
    /// previous build had failed, reloads the open pages. On failure keeps the last good site
    /// served and shows the diagnostics in the terminal (through the observer) and over the pages.
    ///
    /// - Returns: The build's final state.
    @discardableResult
    public mutating func build() async -> BuildState {
        let result = await BuildPipeline().run(options, observer: observer)
        let summary = result.summary
        if summary.succeeded {
            hasSucceeded = true
            if options.output == nil { options.output = result.outputFolder }
            let hadFailed = state.snapshot.failure != nil
            state.update {
                $0.failure = nil
                $0.basePath = result.config.basePath
                $0.output = result.outputFolder
            }
            if hadFailed || summary.written > 0 || summary.removed > 0 {
                await hub.publish(.reload)
            }
        } else {
            let diagnostics = result.diagnostics.filter { $0.severity == .error }
            state.update {
                $0.failure = diagnostics
                if $0.output == nil { $0.output = result.outputFolder }
            }
            await hub.publish(.failure(diagnostics))
            log(hasSucceeded
                ? "serve: still serving the last good build; the next good save rebuilds it"
                : "serve: the pages show this error until a save fixes it")
        }
        return result
    }
}
