import NIOCore
import NIOHTTP1

/// Ends a connection after its answer when the request does not keep it: HTTP/1.0 without
/// `Connection: keep-alive`, or `Connection: close` in any spelling (RFC 9112 §9.3), and says
/// so in the answer's `Connection: close`, as RFC 9112 §9.6 asks.
///
/// Hummingbird keeps a connection unless the request's `Connection` field is exactly `close`,
/// and never tells the client: an HTTP/1.0 client, which reads an answer to the end of the
/// connection, waited for the idle timeout (a minute). Hummingbird only sees the request in HTTP
/// types, which have no version, so this sits in front of that translation: it writes the
/// request's wish as the `Connection: close` Hummingbird knows, which makes it end the
/// connection once the answer is sent.
final class ConnectionClose: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Whether the request being answered ends the connection.
    private var closes = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), !head.isKeepAlive else {
            context.fireChannelRead(data)
            return
        }
        closes = true
        head.headers.replaceOrAdd(name: "Connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard closes, case .head(var head) = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        head.headers.replaceOrAdd(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
