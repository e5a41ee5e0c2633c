import ControlChannel
import ControlProtocol
public import Logging
import NIOCore
import NIOPosix
public import ServiceLifecycle

/// The control socket: JSON-RPC 2.0, one object per line, on a Unix stream socket.
///
/// Every method is answered by the one handler registered for its declaration
/// (`ControlRoutes`): the server's own, and the daemon's (`ControlHandler.registerHandlers`),
/// checked before the socket listens. Requests that need no waiting (bad input, the methods
/// registered with `answerAtOnce`) are answered on the connection's event loop while none of its earlier
/// requests is still being carried out (`ImmediateAnswerHandler`); one structured child task per
/// connection carries out the others in order and answers each through the connection's bounded
/// outbound queue; one task encodes each of the handler's events once and writes it to every
/// subscribed connection's channel without waiting for any of them. A client's bad input is answered and the connection goes on; a
/// client that does not read is disconnected once its queue is full. Graceful shutdown stops
/// accepting, closes every connection and removes the socket file it bound.
public struct ControlServer: Service {
    private let configuration: ControlServerConfiguration
    private let handler: any ControlHandler
    private let logger: Logger
    private let eventLoopGroup: any EventLoopGroup
    private let onListening: @Sendable () -> Void

    /// - Parameters:
    ///   - onListening: called once the socket accepts connections (e.g. to tell systemd READY=1).
    public init(configuration: ControlServerConfiguration, handler: any ControlHandler, logger: Logger,
                onListening: @escaping @Sendable () -> Void = {}) {
        self.configuration = configuration
        self.handler = handler
        self.logger = logger
        self.eventLoopGroup = MultiThreadedEventLoopGroup.singleton
        self.onListening = onListening
    }

    public func run() async throws {
        let registry = ControlConnectionRegistry(logger: logger)
        // A method without its handler stops the start here, before anyone can connect.
        let routes = try ControlRoutes.serving(handler, registry: registry, discovery: OpenRPCDocument.document)
        let dispatcher = ControlRequestDispatcher(routes: routes, logger: logger, maximumLineLength: configuration.maximumLineLength)
        let server = try await bind(dispatcher)
        defer {
            if case .path(let path) = configuration.listener { UnixSocketFile.remove(path) }
        }
        logger.info("Control socket listening.", metadata: ["socket": "\(configuration.listener)"])
        onListening()

        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask {
                    await forwardEvents(to: registry)
                }
                try await server.executeThenClose { connections in
                    for try await connection in connections {
                        group.addTask {
                            await serve(connection, registry: registry, dispatcher: dispatcher)
                        }
                    }
                }
                // The listener is closed: stop forwarding events; connection tasks end as their channels close.
                group.cancelAll()
            }
        } onGracefulShutdown: {
            logger.info("Control socket closing.")
            server.channel.close(promise: nil)
            registry.closeAll()
        }
    }

    /// An accepted connection: its channel and who it is, once the server has registered it.
    private typealias Connection = (channel: NIOAsyncChannel<ControlInbound, ControlOutbound>, identity: ImmediateAnswerHandler.Identity)

    private func bind(_ dispatcher: ControlRequestDispatcher) async throws -> NIOAsyncChannel<Connection, Never> {
        let maximumLineLength = configuration.maximumLineLength
        let bootstrap = ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(.backlog, value: 256)
        let initializer: @Sendable (any Channel) -> EventLoopFuture<Connection> = { channel in
            channel.eventLoop.makeCompletedFuture {
                let identity = ImmediateAnswerHandler.Identity()
                try channel.pipeline.syncOperations.addHandler(
                    ByteToMessageHandler(ControlLineDecoder(maximumLength: maximumLineLength)))
                try channel.pipeline.syncOperations.addHandler(ImmediateAnswerHandler(dispatcher: dispatcher, identity: identity))
                // Deinit-based teardown on purpose: a connection accepted while the listener closes is
                // dropped by NIO before `serve` sees it, and an async channel dropped unfinished traps
                // ("Deinited NIOAsyncWriter without calling finish()": SIGTERM with 200 clients
                // connecting). Every connection that reaches `serve` still ends in `executeThenClose`.
                return (try NIOAsyncChannel<ControlInbound, ControlOutbound>(synchronouslyWrapping: channel), identity)
            }
        }
        switch configuration.listener {
        case .path(let path):
            try UnixSocketFile.prepare(path)
            let channel = try await bootstrap.bind(unixDomainSocketPath: path, childChannelInitializer: initializer)
            try UnixSocketFile.setMode(path, configuration.socketMode)
            return channel
        case .inheritedDescriptor(let descriptor):
            return try await bootstrap.bind(descriptor, childChannelInitializer: initializer)
        }
    }

    private func forwardEvents(to registry: ControlConnectionRegistry) async {
        for await event in handler.events() {
            do {
                let line = try JSONRPCLineWriter.line(JSONRPCNotification(method: ControlEvent.notificationMethod, params: event))
                registry.broadcast(NIOCore.ByteBuffer(bytes: line), kind: event.kind)
            } catch {
                logger.error("An event could not be encoded and was not sent.", metadata: ["kind": "\(event.kind)", "error": "\(error)"])
            }
        }
    }

    /// Closes a connection that will not be served. Through `executeThenClose`, never by closing
    /// the channel alone: NIO traps when an async channel's writer is dropped unfinished (seen when
    /// SIGTERM arrived while 200 clients were connecting).
    private func refuse(_ connection: NIOAsyncChannel<ControlInbound, ControlOutbound>) async {
        try? await connection.executeThenClose { _, _ in }
    }

    /// One connection: a reader answering requests in order and a writer draining the queue.
    private func serve(_ accepted: Connection,
                       registry: ControlConnectionRegistry, dispatcher: ControlRequestDispatcher) async {
        let connection = accepted.channel
        let peer: PeerCredentials
        do {
            peer = try await PeerCredentials.read(from: connection.channel)
        } catch {
            logger.warning("Could not read the peer's credentials; closing the connection.", metadata: ["error": "\(error)"])
            await refuse(connection)
            return
        }
        let (outbox, continuation) = AsyncStream.makeStream(
            of: ControlOutbound.self, bufferingPolicy: .bufferingOldest(configuration.outboundQueueLimit))
        guard let identifier = registry.add(outbox: continuation, channel: connection.channel, peer: peer,
                                                eventLimit: configuration.outboundQueueLimit) else {
            // The server is shutting down: connections accepted just before are closed unanswered.
            await refuse(connection)
            return
        }
        defer { registry.remove(identifier) }
        logger.info("Client connected.", metadata: [
            "connection": "\(identifier)", "peer.pid": "\(peer.pid)", "peer.uid": "\(peer.uid)", "peer.gid": "\(peer.gid)",
        ])
        let client = dispatcher.client(identifier, peer: peer)
        // From now on the event loop may answer requests itself.
        accepted.identity.set(client)
        do {
            try await connection.executeThenClose { inbound, outbound in
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask {
                        for await message in outbox {
                            try await outbound.write(message)
                        }
                    }
                    for try await item in inbound {
                        let response = switch item {
                        case .frame(let frame): await dispatcher.respond(to: frame, from: client)
                        case .command(let pending): await dispatcher.complete(pending, from: client)
                        }
                        // Every item is answered, with nothing when no response is due: the
                        // event loop counts the answers to keep the connection's order.
                        registry.send(.answer(response.flatMap(dispatcher.line)), to: identifier)
                    }
                    // The client closed its side: let the writer send what is queued, then end.
                    continuation.finish()
                }
            }
        } catch {
            logger.debug("Connection ended with an error.", metadata: ["connection": "\(identifier)", "error": "\(error)"])
        }
        logger.info("Client disconnected.", metadata: ["connection": "\(identifier)", "peer.pid": "\(peer.pid)"])
    }
}
