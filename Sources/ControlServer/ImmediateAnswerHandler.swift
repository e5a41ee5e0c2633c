import ControlChannel
import ControlProtocol
package import NIOCore
import Synchronization

/// What a connection's task gets from its event loop.
enum ControlInbound: Sendable {
    /// A frame to read and answer on the task: an earlier request is still being answered, or
    /// the connection is not registered yet.
    case frame(ControlFrame)
    /// A request read on the event loop that the daemon's handler must carry out.
    case command(ControlRequestDispatcher.PendingCommand)
}

/// What a connection's task writes.
package enum ControlOutbound: Sendable {
    /// An event notification line.
    case event(NIOCore.ByteBuffer)
    /// The answer to one `ControlInbound`, in order; nil when none is due (a notification).
    case answer(NIOCore.ByteBuffer?)
}

/// Answers on the connection's event loop every request that needs no waiting (bad input, the
/// server's own methods, `daemon.info` and `run.status` from the daemon's published state), so
/// that such a request costs no hop to the connection's task and back (docs/daemon.md, "Control
/// latency"). Order is kept: it answers only while no earlier request of the connection is
/// still with the task, and only while the socket takes writes (otherwise the answer goes
/// through the connection's bounded queue, which disconnects a client that does not read).
final class ImmediateAnswerHandler: ChannelDuplexHandler {
    typealias InboundIn = ControlFrame
    typealias InboundOut = ControlInbound
    typealias OutboundIn = ControlOutbound
    typealias OutboundOut = NIOCore.ByteBuffer

    /// Who is connected, set by the server's task once the connection is registered.
    final class Identity: Sendable {
        private let value = Mutex<ControlRequestDispatcher.Client?>(nil)

        func set(_ client: ControlRequestDispatcher.Client) {
            value.withLock { $0 = client }
        }

        var current: ControlRequestDispatcher.Client? { value.withLock { $0 } }
    }

    private let dispatcher: ControlRequestDispatcher
    private let identity: Identity
    /// Inbound items handed to the task whose answers have not come back through `write`.
    private var outstanding = 0

    init(dispatcher: ControlRequestDispatcher, identity: Identity) {
        self.dispatcher = dispatcher
        self.identity = identity
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard outstanding == 0, context.channel.isWritable, let client = identity.current else {
            outstanding += 1
            context.fireChannelRead(wrapInboundOut(.frame(frame)))
            return
        }
        switch dispatcher.classify(frame, from: client) {
        case .answered(let response):
            guard let response, let line = dispatcher.line(response) else { return }
            context.writeAndFlush(wrapOutboundOut(line), promise: nil)
        case .needsHandler(let pending):
            outstanding += 1
            context.fireChannelRead(wrapInboundOut(.command(pending)))
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .event(let line):
            context.write(wrapOutboundOut(line), promise: promise)
        case .answer(let line):
            outstanding -= 1
            if let line {
                context.write(wrapOutboundOut(line), promise: promise)
            } else {
                promise?.succeed()
            }
        }
    }
}
