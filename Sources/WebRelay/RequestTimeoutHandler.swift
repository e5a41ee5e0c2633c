import Logging
import NIOCore
import NIOHTTP1

/// Closes an HTTP connection whose request does not arrive in time: from the accept, and from
/// the end of each answer on a kept-alive connection, the whole request (head and body) must be
/// in within `timeout`, so a client that opens connections and never sends a request, or sends
/// its head a byte at a time, holds no descriptor for longer (docs/kiosk.md, "Limits"). A
/// WebSocket upgrade removes this handler; the WebSocket's own ping takes over.
final class RequestTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    static let name = "request-timeout"

    private let timeout: TimeAmount
    private let logger: Logger
    /// The close due while a request is awaited; nil while one is being answered.
    private var due: Scheduled<Void>?
    private var removed = false

    init(timeout: TimeAmount, logger: Logger) {
        self.timeout = timeout
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        arm(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        removed = true
        due?.cancel()
        due = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            due?.cancel()
            due = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        let written = promise ?? context.eventLoop.makePromise()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        written.futureResult.whenSuccess { loopBound.value.0.arm(context: loopBound.value.1) }
        context.write(data, promise: written)
    }

    private func arm(context: ChannelHandlerContext) {
        guard !removed else { return }
        due?.cancel()
        let channel = context.channel, logger = logger, timeout = timeout
        due = context.eventLoop.scheduleTask(in: timeout) {
            logger.debug("A connection that sent no complete request in time is closed",
                          metadata: ["seconds": "\(Double(timeout.nanoseconds) / 1e9)"])
            channel.close(promise: nil)
        }
    }
}
