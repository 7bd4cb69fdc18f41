import NIOCore
import NIOHTTP1

/// Plays a ``FaultyHTTPServer`` route's steps on one connection, on its event loop.
final class FaultyHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let log: FaultyHTTPServer.Log
    private var head: HTTPRequestHead?
    private var answering = false
    private var closed = false
    private var closesOnNextRequest = false

    init(log: FaultyHTTPServer.Log) {
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            if closesOnNextRequest {
                context.close(promise: nil)
                return
            }
            let (path, steps) = log.begin(head)
            answering = true
            play(steps[...], path: path, context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func finish() {
        guard answering else { return }
        answering = false
        log.finish()
    }

    private func play(_ steps: ArraySlice<FaultyHTTPServer.Step>, path: String, context: ChannelHandlerContext) {
        guard let step = steps.first else {
            finish()
            return
        }
        let rest = steps.dropFirst()
        guard !closed else {
            finish()
            return
        }
        switch step {
        case .head(let status, let headers):
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            play(rest, path: path, context: context)
        case .body(let bytes):
            if !bytes.isEmpty {
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
            }
            play(rest, path: path, context: context)
        case .raw(let bytes):
            // Written below the HTTP encoder, so the bytes go out as they are.
            if let encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) {
                encoder.writeAndFlush(NIOAny(ByteBuffer(bytes: bytes)), promise: nil)
            }
            play(rest, path: path, context: context)
        case .pause(let delay):
            context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
                self.play(rest, path: path, context: context)
            }
        case .hold(let condition, let limit):
            hold(until: condition, deadline: .now() + limit, then: rest, path: path, context: context)
        case .end:
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            play(rest, path: path, context: context)
        case .close:
            context.close(promise: nil)
            closed = true
            play(rest, path: path, context: context)
        case .closeOnNextRequest:
            closesOnNextRequest = true
            play(rest, path: path, context: context)
        case .stream(let total, let chunk, let fill):
            stream(sent: 0, total: total, chunk: max(1, chunk), fill: fill, then: rest, path: path, context: context)
        }
    }

    /// Writes one chunk, and the next once the socket took it, until `total` or a closed connection.
    /// Plays `rest` once `condition` holds, asking every 10 ms, or at `deadline` (counted).
    private func hold(until condition: @escaping @Sendable () -> Bool, deadline: NIODeadline, then rest: ArraySlice<FaultyHTTPServer.Step>, path: String, context: ChannelHandlerContext) {
        if condition() {
            play(rest, path: path, context: context)
        } else if NIODeadline.now() >= deadline {
            log.holdTimedOut()
            play(rest, path: path, context: context)
        } else {
            context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(10)) {
                self.hold(until: condition, deadline: deadline, then: rest, path: path, context: context)
            }
        }
    }

    private func stream(
        sent: Int, total: Int, chunk: Int, fill: UInt8,
        then rest: ArraySlice<FaultyHTTPServer.Step>, path: String, context: ChannelHandlerContext
    ) {
        guard sent < total, !closed else {
            log.record(.init(sent: sent, total: total, cutShort: sent < total), path: path)
            play(rest, path: path, context: context)
            return
        }
        let size = min(chunk, total - sent)
        let buffer = ByteBuffer(repeating: fill, count: size)
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer)))).assumeIsolated().whenComplete { result in
            switch result {
            case .success:
                self.stream(sent: sent + size, total: total, chunk: chunk, fill: fill, then: rest, path: path, context: context)
            case .failure:
                self.closed = true
                self.log.record(.init(sent: sent, total: total, cutShort: true), path: path)
                self.finish()
            }
        }
    }
}
