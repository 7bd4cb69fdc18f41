import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1 (an ephemeral port) that the cover tests download from.
///
/// Each path answers with a script of ``Step``s chosen per request, so a test can serve a 500
/// and then a 200, stall, cut the connection mid-body or stream more than the client accepts.
/// The server counts requests per path, records their headers, tracks how many requests were
/// in progress at once, and records how much of each streamed body it managed to send.
final class FaultyHTTPServer: Sendable {
    /// One thing the server does while answering.
    enum Step: Sendable {
        /// Sends the status line and headers.
        case head(HTTPResponseStatus, HTTPHeaders)
        /// Sends body bytes.
        case body([UInt8])
        /// Sends `total` bytes of `fill` in `chunk`-sized writes, each after the previous one
        /// left, stopping early if the client goes away; see ``streams(to:)``.
        case stream(total: Int, chunk: Int, fill: UInt8)
        /// Sends bytes as they are, with no HTTP framing: a port of another service, or the rest
        /// of a body sent past its `Content-Length`.
        case raw([UInt8])
        /// Waits before the next step.
        case pause(TimeAmount)
        /// Waits until `condition` holds (asked every 10 ms) or `limit` has passed, then goes on;
        /// ``Log/holdsThatTimedOut`` counts the waits that reached their limit.
        case hold(until: @Sendable () -> Bool, limit: TimeAmount)
        /// Ends the response (the connection stays open for the next request).
        case end
        /// Closes the connection.
        case close
        /// Keeps the connection open, but closes it without an answer when the next request
        /// comes on it (not counted): a server that closed a kept-alive connection, without
        /// `Connection: close`, just as the client sent its next request.
        case closeOnNextRequest
    }

    /// A request as a route sees it.
    struct Request: Sendable {
        /// The path, without the query.
        var path: String
        /// The request's headers.
        var headers: HTTPHeaders
        /// 1 for the first request to this path, 2 for the next, …
        var number: Int
    }

    /// What became of a ``Step/stream(total:chunk:fill:)``.
    struct StreamRecord: Sendable, Hashable {
        /// The bytes handed to the socket.
        var sent: Int
        /// The bytes the step meant to send.
        var total: Int
        /// Whether the connection closed before everything was sent.
        var cutShort: Bool
    }

    /// The answer to a request: the steps to perform.
    typealias Route = @Sendable (Request) -> [Step]

    /// The shared record of routes and what happened.
    final class Log: Sendable {
        struct State {
            var routes: [String: Route] = [:]
            var counts: [String: Int] = [:]
            var headers: [String: [HTTPHeaders]] = [:]
            var streams: [String: [StreamRecord]] = [:]
            var active = 0
            var maxActive = 0
            var holdsTimedOut = 0
        }
        let state = Mutex(State())

        /// Notes a request and returns its script.
        func begin(_ head: HTTPRequestHead) -> (path: String, steps: [Step]) {
            let path = String(head.uri.prefix { $0 != "?" })
            return state.withLock { state in
                state.counts[path, default: 0] += 1
                state.headers[path, default: []].append(head.headers)
                state.active += 1
                state.maxActive = max(state.maxActive, state.active)
                let request = Request(path: path, headers: head.headers, number: state.counts[path] ?? 1)
                let steps = state.routes[path]?(request) ?? FaultyHTTPServer.text(.notFound, "no route for \(path)")
                return (path, steps)
            }
        }

        /// Notes that a request's answer ended (completed or cut off).
        func finish() {
            state.withLock { $0.active -= 1 }
        }

        /// How many ``Step/hold(until:limit:)`` steps went on because their limit passed.
        var holdsThatTimedOut: Int { state.withLock { $0.holdsTimedOut } }

        /// Notes that a hold reached its limit.
        func holdTimedOut() {
            state.withLock { $0.holdsTimedOut += 1 }
        }

        /// Records a stream's outcome.
        func record(_ stream: StreamRecord, path: String) {
            state.withLock { $0.streams[path, default: []].append(stream) }
        }
    }

    let log: Log
    private let channel: any Channel
    /// The port the server listens on.
    let port: Int

    private init(log: Log, channel: any Channel, port: Int) {
        self.log = log
        self.channel = channel
        self.port = port
    }

    /// Starts a server on 127.0.0.1 on a free port. Servers given the same `log` share their
    /// routes and records, so tests can count requests across several ports.
    static func start(log: Log = Log()) async throws -> FaultyHTTPServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(FaultyHTTPHandler(log: log))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port else {
            try await channel.close()
            throw ServerError(reason: "the server has no port")
        }
        return FaultyHTTPServer(log: log, channel: channel, port: port)
    }

    /// Runs `body` with a fresh server and stops it afterwards.
    static func withServer<T>(_ body: (FaultyHTTPServer) async throws -> T) async throws -> T {
        let server = try await start()
        do {
            let result = try await body(server)
            try await server.stop()
            return result
        } catch {
            try? await server.stop()
            throw error
        }
    }

    /// Stops listening. Open connections close as their clients go.
    func stop() async throws {
        try await channel.close()
    }

    /// The URL of a path on this server.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/invalid")
    }

    /// Answers requests to `path` with the steps `route` returns.
    func route(_ path: String, _ route: @escaping Route) {
        log.state.withLock { $0.routes[path] = route }
    }

    /// How many requests `path` received.
    func requests(to path: String) -> Int { log.state.withLock { $0.counts[path] ?? 0 } }
    /// How many requests the server received in all.
    var totalRequests: Int { log.state.withLock { $0.counts.values.reduce(0, +) } }
    /// The headers of each request to `path`, in order.
    func headers(of path: String) -> [HTTPHeaders] { log.state.withLock { $0.headers[path] ?? [] } }
    /// The most requests that were being answered at the same time.
    var maxConcurrentRequests: Int { log.state.withLock { $0.maxActive } }
    /// What became of the streamed bodies sent for `path`.
    func streams(to path: String) -> [StreamRecord] { log.state.withLock { $0.streams[path] ?? [] } }

    struct ServerError: Error { var reason: String }
}

extension [FaultyHTTPServer.Step] {
    /// A whole response: status line, headers (with `Content-Length`), body and end.
    static func response(_ status: HTTPResponseStatus, _ headers: [(String, String)] = [], body: [UInt8] = []) -> Self {
        var fields = HTTPHeaders(headers)
        fields.replaceOrAdd(name: "Content-Length", value: String(body.count))
        return [.head(status, fields), .body(body), .end]
    }
}

extension FaultyHTTPServer {
    /// A plain-text answer.
    static func text(_ status: HTTPResponseStatus, _ text: String, _ headers: [(String, String)] = []) -> [Step] {
        [Step].response(status, [("Content-Type", "text/plain")] + headers, body: Array(text.utf8))
    }

    /// A redirect to `location`.
    static func redirect(_ location: String, status: HTTPResponseStatus = .found) -> [Step] {
        [Step].response(status, [("Location", location)])
    }
}
