import ControlChannel
import Logging
import NIOCore
import NIOWebSocket

/// The daemon side of one relay: each line from the control socket goes to the browser's
/// handler, which passes it on as one text message if it is the tab's to see; when the daemon closes the connection the browser's WebSocket is closed with
/// "going away", and the UI reconnects.
///
/// Backpressure, the other half of `BrowserRelayHandler`'s: while this connection cannot take
/// more (its write buffer above the high water mark: the daemon is not reading), the browser is
/// not read; nor while the browser itself cannot take more, since a message read from it may be
/// answered to it (a refused method, a pong; docs/kiosk.md, "Limits").
final class DaemonRelayHandler: ChannelInboundHandler {
    typealias InboundIn = ControlFrame

    private let browser: any Channel
    /// The browser's handler (on this channel's event loop), which judges each line.
    private let relay: NIOLoopBound<BrowserRelayHandler>
    private let logger: Logger

    init(browser: any Channel, relay: NIOLoopBound<BrowserRelayHandler>, logger: Logger) {
        self.browser = browser
        self.relay = relay
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .line(let line):
            relay.value.daemonSent(line)
        case .oversized(let length):
            logger.warning("A line from the daemon was too long to relay and was dropped", metadata: ["bytes": "\(length)"])
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        // Both channels are on one event loop (BrowserRelayHandler connects on the browser's).
        relay.value.updateReading()
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        let browser = browser
        guard browser.isWritable else {
            // A browser that is not reading would hold the close frame, and its descriptor, until
            // the stall timeout; the daemon gave up on it (a client too far behind), so do we.
            logger.notice("The daemon closed the connection of a browser that is not reading; it is closed")
            browser.close(promise: nil)
            return context.fireChannelInactive()
        }
        var data = context.channel.allocator.buffer(capacity: 32)
        data.write(webSocketErrorCode: .goingAway)
        data.writeString("The daemon closed the connection.")
        browser.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)).whenComplete { _ in
            browser.close(promise: nil)
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
