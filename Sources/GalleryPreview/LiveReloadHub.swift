import Foundation
import ServiceLifecycle

/// The open pages' event streams: the seed's notification centre, for browser tabs.
///
/// Each `/__gallery/events` request subscribes and gets its own stream; a rebuild publishes to
/// all of them. As a service it pings every stream now and then (so streams of closed tabs are
/// noticed and dropped) and, on graceful shutdown, ends every stream, so the HTTP server has no
/// endless response to wait for and Ctrl-C stops the server at once.
public actor LiveReloadHub: Service {
    private var subscribers: [UUID: AsyncStream<LiveReloadEvent>.Continuation] = [:]
    private var closed = false
    private let pingInterval: Duration

    /// A hub pinging its streams every `pingInterval`.
    public init(pingInterval: Duration = .seconds(15)) {
        self.pingInterval = pingInterval
    }

    /// A new stream of events, beginning with `current` when given (the failure a page loaded
    /// during a broken build should show). The stream ends when the hub shuts down.
    public func subscribe(startingWith current: LiveReloadEvent? = nil) -> AsyncStream<LiveReloadEvent> {
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
        if let current { continuation.yield(current) }
        return stream
    }

    /// Sends an event to every open stream.
    public func publish(_ event: LiveReloadEvent) {
        for continuation in subscribers.values { continuation.yield(event) }
    }

    /// The number of open streams.
    public var subscriberCount: Int { subscribers.count }

    /// Pings the streams until graceful shutdown, then ends them all.
    public func run() async {
        let interval = pingInterval
        try? await cancelWhenGracefulShutdown {
            while true {
                try await Task.sleep(for: interval)
                await self.publish(.ping)
            }
        }
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
