import Synchronization

/// Fans build events out to any number of subscribers, each an `AsyncStream`.
///
/// The build publishes into the bus (it is a ``BuildObserving``); the command line, a log
/// writer or a test subscribes. Events are buffered per subscriber, so a slow terminal never
/// slows the build.
public final class EventBus: BuildObserving {
    private let subscribers = Mutex<[Int: AsyncStream<BuildEvent>.Continuation]>([:])
    private let nextID = Atomic<Int>(0)

    /// Creates a bus with no subscribers.
    public init() {}

    /// A stream of every event published from now on, until ``finish()``.
    public func subscribe() -> AsyncStream<BuildEvent> {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<BuildEvent>.makeStream(bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    /// Publishes an event to every subscriber.
    public func receive(_ event: BuildEvent) {
        let current = subscribers.withLock { Array($0.values) }
        for continuation in current { continuation.yield(event) }
    }

    /// Ends every subscriber's stream.
    public func finish() {
        let current = subscribers.withLock { dictionary in
            defer { dictionary.removeAll() }
            return Array(dictionary.values)
        }
        for continuation in current { continuation.finish() }
    }
}
