import NIOCore
import NIOHTTP1

/// Closes an HTTP connection that has been idle for `--idle-timeout`: one that sends no next
/// request, or stopped half-way through one, or stopped reading its answer.
///
/// Hummingbird's own timeout counted from the moment the last answer was handed to the socket,
/// not from when its bytes left: a download still flowing to a slow client (600 KB/s, a paused
/// `<video>` taking its buffer in slowly) was cut `--idle-timeout` after it began. Here a
/// connection is idle only while no byte comes in and none goes out: an answer's bytes count as
/// they are handed to the kernel, a piece of ``pieceSize`` at a time, and as the kernel sends
/// them on; and while the server itself works on an answer (a request that waits for the first
/// build), the connection is never idle.
final class IdleConnectionTimeout: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The size of the pieces a large body is handed to the socket in, each counted as written.
    static let pieceSize = 64 * 1024

    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?
    /// When a byte last came in or went out.
    private var lastProgress = NIODeadline.now()
    /// Requests whose head came and whose answer has not been handed on to its end.
    private var unanswered = 0
    /// Whether a request's head came and its end has not.
    private var isReadingRequest = false
    /// Writes handed to the socket whose bytes have not all gone.
    private var unwritten = 0

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { schedule(context, at: .now() + timeout) }
    }

    func channelActive(context: ChannelHandlerContext) {
        schedule(context, at: .now() + timeout)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastProgress = .now()
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            isReadingRequest = true
        case .end:
            isReadingRequest = false
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .body(.byteBuffer(var buffer)) where buffer.readableBytes > Self.pieceSize:
            while buffer.readableBytes > Self.pieceSize, let piece = buffer.readSlice(length: Self.pieceSize) {
                send(.body(.byteBuffer(piece)), context: context, promise: nil)
            }
            send(.body(.byteBuffer(buffer)), context: context, promise: promise)
        case .end(let trailers):
            unanswered = max(0, unanswered - 1)
            send(.end(trailers), context: context, promise: promise)
        case let part:
            send(part, context: context, promise: promise)
        }
    }

    /// Writes a part, counting its bytes as progress once they have gone.
    private func send(_ part: HTTPServerResponsePart, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        unwritten += 1
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { _ in
            self.unwritten -= 1
            self.lastProgress = .now()
        }
        if let promise { written.futureResult.cascade(to: promise) }
        context.write(wrapOutboundOut(part), promise: written)
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        timer?.cancel()
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
            self.timer = nil
            self.check(context)
        }
    }

    private func check(_ context: ChannelHandlerContext) {
        if unanswered > 0, !isReadingRequest, unwritten == 0 {
            // The server is working on the answer: not the client's idleness.
            schedule(context, at: .now() + timeout)
            return
        }
        #if os(Linux)
        // The kernel takes megabytes into its buffer, and more from the server only once half
        // of that has gone to the client: a slow client can take seconds to make room, its
        // bytes flowing all along. The kernel says when it last sent any.
        if unwritten > 0, let socket = context.channel as? any SocketOptionProvider {
            socket.getTCPInfo().assumeIsolated().whenComplete { result in
                if case .success(let info) = result {
                    self.lastProgress = max(self.lastProgress, .now() - .milliseconds(Int64(info.tcpi_last_data_sent)))
                }
                self.closeIfIdle(context)
            }
            return
        }
        #endif
        closeIfIdle(context)
    }

    private func closeIfIdle(_ context: ChannelHandlerContext) {
        if NIODeadline.now() >= lastProgress + timeout {
            context.close(promise: nil)
        } else {
            schedule(context, at: lastProgress + timeout)
        }
    }
}

/// Puts the preview's own handlers of HTTP/1 messages into a connection once it is known to carry
/// HTTP requests rather than the live-reload WebSocket: after ``MalformedRequestAnswer``, in
/// front of Hummingbird's translation of them into HTTP types (which drops the request's
/// version). It is given to Hummingbird as an additional handler, which Hummingbird puts after
/// that translation, and passes everything on untouched (NIO keeps no handler that is neither
/// inbound nor outbound).
final class HTTP1Handlers: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let make: () -> [any ChannelHandler]

    /// Puts the handlers `make` returns, in order.
    init(_ make: @escaping () -> [any ChannelHandler]) {
        self.make = make
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        guard let anchor = try? pipeline.handler(type: MalformedRequestAnswer.self) else { return }
        try? pipeline.addHandlers(make(), position: .after(anchor))
    }
}
