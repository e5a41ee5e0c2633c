import Logging
import NIOCore

/// TLS for one accepted connection, first in its pipeline (docs/kiosk.md, "TLS"): decrypts what
/// arrives for the HTTP and WebSocket handlers after it and encrypts what they write. Writes
/// made before the handshake completes wait for it. A connection whose TLS fails (a client
/// that speaks plain HTTP, a bad record) is closed; no other connection is affected.
final class TLSServerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let connection: LibSSL.Connection
    private let logger: Logger
    private var isHandshakeComplete = false
    private var isClosed = false
    private var waitingWrites: [(ByteBuffer, EventLoopPromise<Void>?)] = []
    private var waitingFlush = false
    /// One TLS record's worth of plaintext at a time.
    private var plaintext = [UInt8](repeating: 0, count: 16_384)

    init(context: LibSSL.ServerContext, logger: Logger) throws {
        connection = try LibSSL.Connection(context: context)
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        guard !isClosed else { return }
        do {
            try buffer.withUnsafeReadableBytes { bytes throws(LibSSL.TLSFailure) in try connection.receive(bytes) }
            if !isHandshakeComplete {
                isHandshakeComplete = try connection.handshake()
                sendOutput(context: context, promise: nil, flush: true)
                guard isHandshakeComplete else { return }
                let writes = waitingWrites
                waitingWrites = []
                for (data, promise) in writes { encrypt(data, context: context, promise: promise) }
                if waitingFlush || !writes.isEmpty {
                    waitingFlush = false
                    context.flush()
                }
            }
            while let count = try plaintext.withUnsafeMutableBytes({ bytes throws(LibSSL.TLSFailure) in try connection.read(into: bytes) }) {
                if count == 0 {
                    // The client's close_notify: answer it and close.
                    fail(context: context, reason: nil)
                    return
                }
                var decrypted = context.channel.allocator.buffer(capacity: count)
                decrypted.writeBytes(plaintext[0..<count])
                context.fireChannelRead(wrapInboundOut(decrypted))
                guard !isClosed else { return }
            }
            // Post-handshake messages (session tickets) and alerts.
            sendOutput(context: context, promise: nil, flush: true)
        } catch {
            fail(context: context, reason: "\(error)")
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let buffer = unwrapOutboundIn(data)
        guard isHandshakeComplete else {
            waitingWrites.append((buffer, promise))
            return
        }
        encrypt(buffer, context: context, promise: promise)
    }

    func flush(context: ChannelHandlerContext) {
        guard isHandshakeComplete else {
            waitingFlush = true
            return
        }
        context.flush()
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all, isHandshakeComplete, !isClosed {
            isClosed = true
            connection.shutdown()
            sendOutput(context: context, promise: nil, flush: true)
        }
        failWaitingWrites()
        context.close(mode: mode, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        isClosed = true
        failWaitingWrites()
        context.fireChannelInactive()
    }

    private func encrypt(_ buffer: ByteBuffer, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        do {
            try buffer.withUnsafeReadableBytes { bytes throws(LibSSL.TLSFailure) in try connection.write(bytes) }
            sendOutput(context: context, promise: promise, flush: false)
        } catch {
            promise?.fail(error)
            fail(context: context, reason: "\(error)")
        }
    }

    /// Writes what libssl has to send; `promise` completes with that write.
    private func sendOutput(context: ChannelHandlerContext, promise: EventLoopPromise<Void>?, flush: Bool) {
        let bytes = connection.takeOutput()
        guard !bytes.isEmpty else {
            promise?.succeed(())
            return
        }
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        if flush {
            context.writeAndFlush(wrapOutboundOut(buffer), promise: promise)
        } else {
            context.write(wrapOutboundOut(buffer), promise: promise)
        }
    }

    /// Sends what libssl has (an alert, the close_notify) and closes the connection.
    private func fail(context: ChannelHandlerContext, reason: String?) {
        if let reason { logger.notice("TLS connection closed", metadata: ["reason": "\(reason)"]) }
        isClosed = true
        if isHandshakeComplete { connection.shutdown() }
        sendOutput(context: context, promise: nil, flush: true)
        failWaitingWrites()
        context.close(promise: nil)
    }

    private func failWaitingWrites() {
        let writes = waitingWrites
        waitingWrites = []
        for (_, promise) in writes { promise?.fail(ChannelError.ioOnClosedChannel) }
    }
}
