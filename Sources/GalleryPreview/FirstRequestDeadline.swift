import NIOCore

/// Closes a connection whose first request's head has not arrived within a deadline: a client
/// that connects and sends nothing, or stops half-way through its headers, would otherwise hold
/// its socket (a file descriptor of the server's) for as long as it likes. With `--host`
/// exposing the preview to a network, a few hundred such connections could stop it accepting.
///
/// It sits first in the pipeline and only watches the bytes go by: once they hold the blank line
/// that ends a request's head (CRLF CRLF, or bare line feeds), it cancels its timer and leaves
/// the pipeline. From then on Hummingbird's idle timeout covers the wait between requests, and
/// a request held while the first build runs, or a live-reload socket, is never cut.
final class FirstRequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let deadline: TimeAmount
    private var timer: Scheduled<Void>?
    /// Whether the last byte that was not a carriage return was a line feed.
    private var atLineStart = false
    private var done = false

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !done, Self.endsHead(unwrapInboundIn(data), atLineStart: &atLineStart) {
            done = true
            timer?.cancel()
            timer = nil
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        context.fireChannelRead(data)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard timer == nil, !done else { return }
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: deadline) {
            channel.close(promise: nil)
        }
    }

    /// Whether `buffer` holds the end of a request's head: an empty line. `atLineStart` carries
    /// across reads, as a head may arrive a byte at a time.
    static func endsHead(_ buffer: ByteBuffer, atLineStart: inout Bool) -> Bool {
        buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\n"):
                    if atLineStart { return true }
                    atLineStart = true
                case UInt8(ascii: "\r"):
                    break
                default:
                    atLineStart = false
                }
            }
            return false
        }
    }
}
