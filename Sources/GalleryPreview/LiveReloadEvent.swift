import GalleryKit

/// What the open pages are told, as a WebSocket text message on ``PageDecorator/livePath``: the
/// preview's state after a build, and on connecting the state it is in.
///
/// Each page knows the build it was served from (``PageDecorator/decorate(_:build:failure:)``
/// writes its id into the page), so it decides for itself: a page from another build reloads;
/// one from this build shows the failure, or drops an overlay it no longer needs. A page that
/// reconnects after the server restarted, or after missing a message, so ends up right too.
public struct LiveReloadEvent: Sendable, Hashable {
    /// The id of the last good build, `nil` before the first one.
    public var build: String?
    /// The diagnostics of the latest build when it failed.
    public var failure: [Diagnostic]?

    /// An event.
    public init(build: String?, failure: [Diagnostic]? = nil) {
        self.build = build
        self.failure = failure
    }

    /// The event as a JSON object: `{"build":"…","errors":null}`, or with the failure's lines
    /// in `errors`, which the page puts in the overlay as text, never as markup.
    public var message: String {
        let errors = failure.map { diagnostics in
            "[" + diagnostics.map { Escape.jsonString($0.description, htmlSafe: true) }.joined(separator: ",") + "]"
        }
        return "{\"build\":" + Self.json(build) + ",\"errors\":" + (errors ?? "null") + "}"
    }

    /// A build id as a JSON value, as the message and the page's script write it.
    static func json(_ build: String?) -> String {
        build.map { Escape.jsonString($0, htmlSafe: true) } ?? "null"
    }
}
