import Hummingbird
import HummingbirdWebSocket

/// The live-reload WebSocket: each page opens one on ``PageDecorator/livePath`` and is sent the
/// hub's events as text messages.
///
/// A WebSocket rather than server-sent events because browsers count an `EventSource` against
/// their six HTTP/1.1 connections per host, across all tabs, and a WebSocket against a limit of
/// their own (hundreds): with a stream per page, a seventh tab of the preview never loaded.
public enum LiveReloadSocket {
    /// The server's WebSocket settings: the library's pings find pages that left without a word,
    /// and a page that does not answer the closing handshake at shutdown is not waited for long.
    public static let configuration = WebSocketServerConfiguration(autoPing: .enabled(timePeriod: .seconds(15)), closeTimeout: .seconds(2))

    /// Upgrades a request for ``PageDecorator/livePath`` (any other is answered over HTTP): the
    /// page gets the latest event, then every event the hub publishes until it leaves or the hub
    /// shuts down.
    ///
    /// A socket asked for by a page of another origin (see ``RequestOrigin``) is not opened: the
    /// request is answered over HTTP, which refuses it or serves the site's 404 page.
    public static func upgrade(
        _ request: HTTPRequest,
        hub: LiveReloadHub,
        origin: RequestOrigin = RequestOrigin(loopbackOnly: true)
    ) -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        guard let path = request.path, path.split(separator: "?", maxSplits: 1).first.map(String.init) == PageDecorator.livePath,
              origin.allowsSocket(origin: request.headerFields[.origin], host: request.authority) else {
            return .dontUpgrade
        }
        return .upgrade([:]) { inbound, outbound, _ in
            let events = await hub.subscribe()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await event in events {
                        try await outbound.write(.text(event.message))
                    }
                }
                group.addTask {
                    // The page sends nothing; reading handles the library's pings and the close.
                    for try await _ in inbound {}
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }
}
