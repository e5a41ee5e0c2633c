import ControlProtocol
import NIOCore
import NIOWebSocket

extension BrowserRelayHandler {
    /// What of the browser's message `text` goes on to the daemon (without its `\n`), if
    /// anything: a participant's method (`KioskMethodPolicy`) that this tab may send now
    /// (`TabRunScope`: a run command only for its own run, and naming it). A refused request is
    /// answered here, in the daemon's words and format, and the WebSocket stays open (the UI
    /// shows the refusal as it shows the daemon's).
    func admitted(_ text: ByteBuffer, context: ChannelHandlerContext) -> ByteBuffer? {
        guard let read = JSONRPCLineReader.read(text.readableBytesView) else { return text }
        switch KioskMethodPolicy.judge(read) {
        case .forward:
            break
        case .drop:
            return nil
        case .answer(let line):
            send(line, context: context)
            return nil
        }
        guard case .success(let incoming) = read else { return text }
        let admission = scope.admit(incoming)
        if case .refuse(let error) = admission {
            if let error, case .answer(let line) = KioskMethodPolicy.answer(error, id: incoming.request.id) {
                send(line, context: context)
            }
            return nil
        }
        if !scope.readsBrowser { updateReading() }
        guard case .forwardNaming(let line) = admission else { return text }
        return context.channel.allocator.buffer(bytes: line)
    }

    /// One line from the daemon, as `TabRunScope` judges it: passed on, rewritten, held or
    /// dropped; the relay's own `run.status` goes to the daemon, a claim to `RunClaims`.
    func daemonSent(_ line: ByteBuffer) {
        guard let browser, let daemon else { return }
        let wasReading = scope.readsBrowser
        let outcome = scope.daemonLine(line.readableBytesView)
        if let reason = outcome.close {
            logger.warning("A browser WebSocket is closed: the relay lost track of whose run its lines are", metadata: ["reason": "\(reason)"])
            daemon.close(promise: nil)
            browser.close(promise: nil)
            return
        }
        for delivery in outcome.toBrowser {
            let message: ByteBuffer = switch delivery {
            case .original: line
            case .line(let bytes): browser.allocator.buffer(bytes: bytes)
            }
            browser.write(WebSocketFrame(fin: true, opcode: .text, data: message), promise: nil)
        }
        if !outcome.toBrowser.isEmpty { browser.flush() }
        for request in outcome.toDaemon { daemon.writeAndFlush(daemon.allocator.buffer(bytes: request), promise: nil) }
        if let tabKey {
            if let run = outcome.claimed { claims.record(run, for: tabKey) }
            if let run = outcome.ended { claims.release(run, for: tabKey) }
        }
        if wasReading != scope.readsBrowser { updateReading() }
    }

    /// A line (with its `\n`) answered to the browser by the relay itself, as one message.
    private func send(_ line: [UInt8], context: ChannelHandlerContext) {
        let message = context.channel.allocator.buffer(bytes: line.last == UInt8(ascii: "\n") ? line.dropLast() : line[...])
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: message)), promise: nil)
    }
}
