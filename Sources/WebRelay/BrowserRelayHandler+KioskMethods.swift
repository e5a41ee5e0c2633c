import NIOCore
import NIOWebSocket

extension BrowserRelayHandler {
    /// Whether the browser's message `text` goes on to the daemon (`KioskMethodPolicy`); a
    /// refused request is answered here, in the daemon's words and format, and the WebSocket
    /// stays open (the UI shows the refusal as it shows the daemon's).
    func admits(_ text: ByteBuffer, context: ChannelHandlerContext) -> Bool {
        switch KioskMethodPolicy.judge(text.readableBytesView) {
        case .forward:
            return true
        case .drop:
            return false
        case .answer(let line):
            // A message is the line without its `\n`, as DaemonRelayHandler sends the daemon's.
            let message = context.channel.allocator.buffer(bytes: line.last == UInt8(ascii: "\n") ? line.dropLast() : line[...])
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: message)), promise: nil)
            return false
        }
    }
}
