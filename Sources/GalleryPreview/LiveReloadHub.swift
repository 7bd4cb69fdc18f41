import Foundation
import ServiceLifecycle

/// The open pages' live-reload channels: the seed's notification centre, for browser tabs.
///
/// Each page's WebSocket subscribes and gets its own stream, beginning with the latest event; a
/// build publishes to all of them. As a service it ends every stream on graceful shutdown, so each socket is closed and the
/// HTTP server has no open connection to wait for: Ctrl-C stops the server at once.
public actor LiveReloadHub: Service {
    private var subscribers: [UUID: AsyncStream<LiveReloadEvent>.Continuation] = [:]
    private var closed = false
    /// The latest event, which a new stream begins with.
    public private(set) var latest: LiveReloadEvent?

    /// A hub with no subscribers.
    public init() {}

    /// A new stream of events, beginning with the latest (so a page that connects late, or again
    /// after the server restarted, learns which build is served). The stream ends when the hub
    /// shuts down.
    public func subscribe() -> AsyncStream<LiveReloadEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveReloadEvent.self, bufferingPolicy: .bufferingNewest(8))
        if closed {
            continuation.finish()
            return stream
        }
        let id = UUID()
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        if let latest { continuation.yield(latest) }
        return stream
    }

    /// Sends an event to every open stream, and to every later one first.
    public func publish(_ event: LiveReloadEvent) {
        latest = event
        for continuation in subscribers.values { continuation.yield(event) }
    }

    /// The number of open streams.
    public var subscriberCount: Int { subscribers.count }

    /// Waits for graceful shutdown, then ends every stream.
    public func run() async {
        try? await gracefulShutdown()
        close()
    }

    /// Ends every stream; later subscribers get an empty one.
    public func close() {
        closed = true
        for continuation in subscribers.values { continuation.finish() }
        subscribers = [:]
    }

    private func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }
}
