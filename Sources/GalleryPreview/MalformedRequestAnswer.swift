import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// The preview server's connections, as Hummingbird's WebSocket-upgrading HTTP/1 channel sets them
/// up, with ``MalformedRequestAnswer`` behind the upgrade handler and a ``FirstRequestDeadline``
/// in front of everything.
struct AnsweringMalformedRequests<Inner: ServerChildChannel>: ServerChildChannel {
    /// How long a connection may take to send its first request's head.
    let firstRequestDeadline: TimeAmount
    let inner: Inner

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Inner.Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            try channel.pipeline.syncOperations.addHandler(FirstRequestDeadline(deadline: firstRequestDeadline), position: .first)
            try channel.pipeline.syncOperations.addHandler(MalformedRequestAnswer())
            return value
        }
    }

    func handle(value: Inner.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// Answers a request the HTTP parser rejects (headers over its 80 KB, a method or version it does
/// not know, bytes that are not HTTP) with `431` or `400`, and ends the connection.
///
/// Hummingbird's WebSocket-upgrading channel turns NIO's error handling off ("handled by
/// Hummingbird"), but a parse error in a connection's first request comes before Hummingbird
/// has a handler in the pipeline: it reached the pipeline's end unanswered, and the client (a
/// browser sending a large `localhost` cookie another app set) waited with no reply, its
/// connection held open. Sits behind the upgrade handler, so the decoder's errors pass it, and
/// passes everything else along unchanged: HTTP parts, and WebSocket bytes after an upgrade.
///
/// Once the answer is sent it closes the connection's input, not the whole connection: the
/// upgrade handler (or Hummingbird's, after a first good request) takes that as the client gone
/// and closes the rest itself. Closed from here, the upgrade's unfinished negotiation was logged
/// in the terminal as an error for every such request.
final class MalformedRequestAnswer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundOut = HTTPServerResponsePart

    private var answered = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        guard !answered else { return }
        answered = true
        let status: HTTPResponseStatus = error == .headerOverflow ? .requestHeaderFieldsTooLarge : .badRequest
        let text = Array((error == .headerOverflow
            ? "The request's URL and headers are more than gallery serve reads (80 KB, or 1,000 header lines): a large cookie for this host, perhaps.\n"
            : "gallery serve could not read this request as HTTP/1.1.\n").utf8)
        let headers = HTTPHeaders([
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Length", String(text.count)),
            ("Connection", "close"),
        ])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: text)))), promise: nil)
        let closing = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        let channel = context.channel
        closing.whenComplete { _ in channel.close(mode: .input, promise: nil) }
    }
}
