import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// Reads one HTTP response for the cover fetcher, on the connection's event loop: the head, then
/// the body into one buffer, enforcing the size limit and sniffing the first kilobyte as the
/// bytes arrive, so no chunk has to cross to another thread.
///
/// Returning a failed future from a callback makes AsyncHTTPClient cancel the request and close
/// its connection: that is how a too-large body or a web page is cut off mid-stream.
final class CoverResponseCollector: HTTPClientResponseDelegate {
    /// What the collector saw.
    struct Collected: Sendable {
        /// The status code.
        var status: Int
        /// The response headers.
        var headers: HTTPHeaders
        /// The body of a 200 or 203 response; `nil` for other statuses, whose bodies are dropped.
        var body: ByteBuffer?
        /// The sniffed format of `body`, if it is an image.
        var kind: ImageKind?
    }

    private struct State {
        var status = 0
        var headers = HTTPHeaders()
        var wanted = false
        var body = ByteBuffer()
        var received = 0
        var expected: Int?
        var kind: ImageKind?
        var lastReport: NIODeadline = .now()
    }

    private let state = Mutex(State())
    private let limit: Int
    private let url: String
    private let observer: any BuildObserving
    private let progressInterval: TimeAmount

    /// How much of an unwanted body (an error page, a redirect's) is read to keep the connection
    /// for the next request; a larger one closes the connection instead.
    static let drainLimit = 64 * 1024

    /// A collector for one request to `url` (the cover URL the events name).
    init(url: String, limit: Int, progressInterval: TimeAmount, observer: any BuildObserving) {
        self.url = url
        self.limit = limit
        self.progressInterval = progressInterval
        self.observer = observer
    }

    /// The body bytes received so far and the announced length, for a connection that broke.
    var progress: (received: Int, expected: Int?) {
        state.withLock { ($0.received, $0.expected) }
    }

    /// The status and headers, once they arrived (for a response whose unwanted body was cut off).
    var head: Collected? {
        state.withLock { $0.status == 0 ? nil : Collected(status: $0.status, headers: $0.headers) }
    }

    /// Notes the status and headers; fails at once if a wanted body announces more than the limit.
    func didReceiveHead(task: HTTPClient.Task<Collected>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let status = Int(head.status.code)
        let wanted = status == 200 || status == 203
        let expected = head.headers.first(name: "Content-Length").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        state.withLock { state in
            state.status = status
            state.headers = head.headers
            state.wanted = wanted
            state.expected = expected
        }
        guard wanted else { return task.eventLoop.makeSucceededVoidFuture() }
        if let expected, expected > limit {
            return task.eventLoop.makeFailedFuture(CoverDownloadError.tooLarge(limit: limit, announced: expected))
        }
        state.withLock { state in
            state.body.reserveCapacity(min(expected ?? 256 * 1024, limit))
            state.lastReport = .now()
        }
        observer.receive(.cover(.downloading(url: url, received: 0, expected: expected)))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    /// Appends a chunk of a wanted body (failing past the limit, or when the first kilobyte is
    /// not an image) or counts a drained one; reports progress at most once per interval.
    func didReceiveBodyPart(task: HTTPClient.Task<Collected>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let outcome: Result<(report: Bool, received: Int, expected: Int?), CoverDownloadError> = state.withLock { state in
            state.received += buffer.readableBytes
            guard state.wanted else {
                return state.received > Self.drainLimit ? .failure(.drainLimitReached) : .success((false, state.received, nil))
            }
            guard state.received <= limit else { return .failure(.tooLarge(limit: limit, announced: nil)) }
            var chunk = buffer
            state.body.writeBuffer(&chunk)
            if state.kind == nil, state.received >= 1024 {
                guard let kind = ImageKind.sniff(state.body.readableBytesView) else {
                    return .failure(.notAnImage(head: Array(state.body.readableBytesView.prefix(64))))
                }
                state.kind = kind
            }
            let now = NIODeadline.now()
            guard now - state.lastReport >= progressInterval else { return .success((false, state.received, state.expected)) }
            state.lastReport = now
            return .success((true, state.received, state.expected))
        }
        switch outcome {
        case .failure(let error):
            return task.eventLoop.makeFailedFuture(error)
        case .success(let progress):
            if progress.report {
                observer.receive(.cover(.downloading(url: url, received: progress.received, expected: progress.expected)))
            }
            return task.eventLoop.makeSucceededVoidFuture()
        }
    }

    /// The collected response.
    func didFinishRequest(task: HTTPClient.Task<Collected>) throws -> Collected {
        state.withLock { state in
            guard state.wanted else { return Collected(status: state.status, headers: state.headers) }
            let kind = state.kind ?? ImageKind.sniff(state.body.readableBytesView)
            return Collected(status: state.status, headers: state.headers, body: state.body, kind: kind)
        }
    }
}
