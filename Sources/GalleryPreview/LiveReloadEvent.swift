import GalleryKit

/// A message to the open pages, sent as a WebSocket text message on ``PageDecorator/livePath``.
public enum LiveReloadEvent: Sendable, Hashable {
    /// A rebuild succeeded: reload the page.
    case reload
    /// A rebuild failed: show these diagnostics over the page.
    case failure([Diagnostic])

    /// The event as a JSON object: `{"type":"reload"}`, or `{"type":"error","lines":[…]}` with
    /// the diagnostics' lines, which the page puts in the overlay as text, never as markup.
    public var message: String {
        switch self {
        case .reload:
            return "{\"type\":\"reload\"}"
        case .failure(let diagnostics):
            let lines = diagnostics.map { Escape.jsonString($0.description, htmlSafe: true) }
            return "{\"type\":\"error\",\"lines\":[" + lines.joined(separator: ",") + "]}"
        }
    }
}
