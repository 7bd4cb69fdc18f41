import GalleryKit

/// A message to the open pages, sent as a server-sent event on `/__gallery/events`.
public enum LiveReloadEvent: Sendable, Hashable {
    /// A rebuild succeeded: reload the page.
    case reload
    /// A rebuild failed: show these diagnostics over the page.
    case failure([Diagnostic])
    /// A comment line that keeps the connection alive and finds clients that left.
    case ping

    /// The event in the `text/event-stream` format.
    ///
    /// The failure's data is a JSON array of the diagnostics' lines; the page puts them in the
    /// overlay as text, never as markup.
    public var serverSentEvent: String {
        switch self {
        case .reload:
            return "event: reload\ndata: reload\n\n"
        case .failure(let diagnostics):
            let lines = diagnostics.map { Escape.jsonString($0.description, htmlSafe: true) }
            return "event: error\ndata: [" + lines.joined(separator: ",") + "]\n\n"
        case .ping:
            return ": ping\n\n"
        }
    }
}
