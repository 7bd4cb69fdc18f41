/// A named stage of the build. The pipeline is a list of these, run in order; a step that finds
/// errors stops the build after it, naming itself.
public struct BuildStep: Sendable {
    /// The step's name, shown as `[i/n] name` and in failures.
    public let name: String
    /// The work: reads and extends the state, reports through the observer.
    let body: @Sendable (inout BuildState, any BuildObserving) async throws -> Void

    /// Creates a step.
    public init(name: String, body: @escaping @Sendable (inout BuildState, any BuildObserving) async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// The standard build: load, covers, thumbnails, layout, render, validate, write.
    public static let standard: [BuildStep] = [.loadAlbums, .fetchCovers, .makeThumbnails, .layout, .render, .validate, .write]
}
