import ControlChannel
import Logging
import NIOCore
import NIOPosix
import NIOWebSocket

/// One browser WebSocket after the upgrade: opens its own connection to the control socket and
/// relays each text message as one line to the daemon, and each line from the daemon as one
/// text message back. Nothing is changed on the way; a request a tab may not make
/// (`KioskMethodPolicy`) is answered here instead (docs/kiosk.md, "The relay").
///
/// A message over the limit (the aggregator's error), a binary message or one with a line
/// break closes this socket only; the daemon's connection closes with it, and a daemon that
/// goes away closes the WebSocket (the UI reconnects).
final class BrowserRelayHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let socketPath: String
    private let maximumDaemonLineSize: Int
    private let logger: Logger
    /// The daemon connection once it is open.
    private var daemon: (any Channel)?
    /// Lines sent before the daemon connection was open.
    private var pending: [ByteBuffer] = []
    private var closed = false

    init(socketPath: String, maximumDaemonLineSize: Int, logger: Logger) {
        self.socketPath = socketPath
        self.maximumDaemonLineSize = maximumDaemonLineSize
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let browser = context.channel
        let limit = maximumDaemonLineSize
        let logger = logger
        let connection = ClientBootstrap(group: context.eventLoop)
            .channelInitializer { daemon in
                daemon.eventLoop.makeCompletedFuture {
                    try daemon.pipeline.syncOperations.addHandlers([
                        ByteToMessageHandler(ControlLineDecoder(maximumLength: limit)),
                        DaemonRelayHandler(browser: browser, logger: logger),
                    ])
                }
            }
            .connect(unixDomainSocketPath: socketPath)
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        connection.assumeIsolated().whenComplete { result in
            switch result {
            case .success(let daemon): self.connected(daemon, context: loopBoundContext.value)
            case .failure(let error):
                self.logger.warning("The control socket could not be reached", metadata: ["socket": "\(self.socketPath)", "error": "\(error)"])
                self.close(context: loopBoundContext.value, code: .unexpectedServerError, reason: "The daemon is not reachable.")
            }
        }
    }

    private func connected(_ channel: any Channel, context: ChannelHandlerContext) {
        guard !closed else { return channel.close(promise: nil) }
        daemon = channel
        for line in pending { channel.write(line, promise: nil) }
        pending = []
        channel.flush()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            var text = frame.unmaskedData
            guard !text.readableBytesView.contains(UInt8(ascii: "\n")) else {
                return close(context: context, code: .dataInconsistentWithMessage, reason: "A message is one JSON-RPC request without line breaks.")
            }
            guard admits(text, context: context) else { return }
            text.writeInteger(UInt8(ascii: "\n"))
            if let daemon {
                daemon.writeAndFlush(text, promise: nil)
            } else {
                pending.append(text)
            }
        case .ping:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            close(context: context, code: .normalClosure, reason: "")
        case .binary:
            close(context: context, code: .unacceptableData, reason: "Messages are JSON-RPC text.")
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        daemon?.close(promise: nil)
        daemon = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.notice("A browser WebSocket is closed", metadata: ["error": "\(error)"])
        let tooLarge = (error as? NIOWebSocketFrameAggregator.Error) == .accumulatedFrameSizeIsTooLarge
            || (error as? NIOWebSocketError) == .invalidFrameLength
        close(context: context, code: tooLarge ? .messageTooLarge : .protocolError,
              reason: tooLarge ? "A message is at most 1 MiB." : "The WebSocket frames are not valid.")
    }

    /// Sends a close frame and closes this WebSocket (and with it its daemon connection).
    func close(context: ChannelHandlerContext, code: WebSocketErrorCode, reason: String) {
        guard !closed else { return }
        closed = true
        var data = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        data.write(webSocketErrorCode: code)
        data.writeString(reason)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))).whenComplete { _ in
            channel.close(promise: nil)
        }
        daemon?.close(promise: nil)
        daemon = nil
    }
}
