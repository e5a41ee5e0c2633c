import ControlChannel
import Logging
import NIOCore
import NIOPosix
import NIOWebSocket

/// One browser WebSocket after the upgrade: opens its own connection to the control socket and
/// relays each text message as one line to the daemon, and each line from the daemon as one
/// text message back. A request a tab may not make (`KioskMethodPolicy`, or a run command for
/// a run not its own, `TabRunScope`) is answered here instead, and of the daemon's lines the tab
/// gets only those of its own run (docs/kiosk.md, "The relay", "A tab's own run").
///
/// A message over the limit (the aggregator's error), a binary message or one with a line
/// break closes this socket only; the daemon's connection closes with it, and a daemon that
/// goes away closes the WebSocket (the UI reconnects).
///
/// It holds its buffers (docs/kiosk.md, "Limits"), as NIO's own glue handler does: one side is
/// read only while the other can take more (`isWritable`, under the write buffer's high water
/// mark), so the daemon's rule for a client too far behind applies to the browser behind the
/// relay; a browser that takes nothing for `stalledTimeout` is closed, and one that sends
/// nothing for a ping interval is pinged and closed when it stays silent as long again.
final class BrowserRelayHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let configuration: WebRelayConfiguration
    let logger: Logger
    /// The runs of the server's tabs by their keys, and this tab's key (`/ws?tab=`), if it has one.
    let claims: RunClaims
    let tabKey: String?
    /// Which run this tab may see and drive.
    var scope: TabRunScope
    /// This WebSocket, and the daemon connection once it is open.
    private(set) var browser: (any Channel)?
    private(set) var daemon: (any Channel)?
    /// Lines sent before the daemon connection was open (the browser is not read until then,
    /// so these are what one read held at most).
    private var pending: [ByteBuffer] = []
    private var closed = false
    /// A ping sent and nothing read since.
    private var pinged = false
    /// The close due since the browser stopped taking what is sent to it.
    private var stalled: Scheduled<Void>?

    init(configuration: WebRelayConfiguration, claims: RunClaims, tabKey: String?, logger: Logger) {
        self.configuration = configuration
        self.claims = claims
        self.tabKey = tabKey
        self.scope = TabRunScope(claim: tabKey.flatMap { claims.run(of: $0) })
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let browser = context.channel
        self.browser = browser
        browser.setAutoReadNow(false)
        let relay = NIOLoopBound(self, eventLoop: context.eventLoop)
        let limit = configuration.maximumDaemonLineSize
        let logger = logger
        let connection = ClientBootstrap(group: context.eventLoop)
            .channelOption(.writeBufferWaterMark, value: configuration.writeBufferWaterMark)
            .channelInitializer { daemon in
                daemon.eventLoop.makeCompletedFuture {
                    try daemon.pipeline.syncOperations.addHandlers([
                        ByteToMessageHandler(ControlLineDecoder(maximumLength: limit)),
                        DaemonRelayHandler(browser: browser, relay: relay, logger: logger),
                    ])
                }
            }
            .connect(unixDomainSocketPath: configuration.controlSocket)
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        connection.assumeIsolated().whenComplete { result in
            switch result {
            case .success(let daemon): self.connected(daemon, context: loopBoundContext.value)
            case .failure(let error):
                self.logger.warning("The control socket could not be reached", metadata: ["socket": "\(self.configuration.controlSocket)", "error": "\(error)"])
                self.close(context: loopBoundContext.value, code: .unexpectedServerError, reason: "The daemon is not reachable.")
            }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stalled?.cancel()
        stalled = nil
        browser = nil
    }

    private func connected(_ channel: any Channel, context: ChannelHandlerContext) {
        guard !closed else { return channel.close(promise: nil) }
        daemon = channel
        // Which run is under way, before the tab's first request is read (`TabRunScope`).
        channel.write(channel.allocator.buffer(bytes: scope.probe()), promise: nil)
        for line in pending { channel.write(line, promise: nil) }
        pending = []
        channel.flush()
        updateReading()
    }

    /// Reads the browser only while the daemon connection and the browser itself take more
    /// (what is read from the browser may be answered to it: a refused method, a pong) and the
    /// tab's scope is ready for requests; reads the daemon only while the browser takes more.
    func updateReading() {
        guard let browser else { return }
        browser.setAutoReadNow(browser.isWritable && daemon?.isWritable == true && scope.readsBrowser)
        daemon?.setAutoReadNow(browser.isWritable)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        pinged = false
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            let text = frame.unmaskedData
            guard !text.readableBytesView.contains(UInt8(ascii: "\n")) else {
                return close(context: context, code: .dataInconsistentWithMessage, reason: "A message is one JSON-RPC request without line breaks.")
            }
            guard var text = admitted(text, context: context) else { return }
            text.writeInteger(UInt8(ascii: "\n"))
            forward(text)
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

    /// Sends one line from the browser to the daemon: every request passes here, once.
    private func forward(_ line: ByteBuffer) {
        if let daemon {
            daemon.writeAndFlush(line, promise: nil)
        } else {
            pending.append(line)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        let writable = context.channel.isWritable
        updateReading()
        stalled?.cancel()
        stalled = nil
        if !writable {
            let channel = context.channel, daemon = daemon, logger = logger, timeout = configuration.stalledTimeout
            stalled = context.eventLoop.scheduleTask(in: timeout) {
                logger.notice("A browser that took nothing of what was sent to it is closed",
                              metadata: ["seconds": "\(Double(timeout.nanoseconds) / 1e9)"])
                daemon?.close(promise: nil)
                channel.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read else {
            return context.fireUserInboundEventTriggered(event)
        }
        if pinged {
            close(context: context, code: .goingAway, reason: "No answer to a ping.")
        } else {
            pinged = true
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer())), promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        stalled?.cancel()
        stalled = nil
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
