public import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
public import ServiceLifecycle

/// `activetask-web`'s server as a `Service`: listens on the configured loopback addresses (TLS is
/// a reverse proxy's, docs/kiosk.md, "TLS"), serves the UI (`StaticFileHandler`) and upgrades
/// `/ws` to a WebSocket relayed to the control socket (`BrowserRelayHandler`). Every connection
/// has its request timeout (`RequestTimeoutHandler`), every WebSocket its ping, and both their
/// write buffer's water marks. It stops listening on graceful shutdown; open WebSockets end with
/// the process.
public struct WebRelayServer: Service {
    /// The WebSocket's path.
    public static let webSocketPath = "/ws"

    private let configuration: WebRelayConfiguration
    private let logger: Logger
    private let onListening: @Sendable ([ListenAddress]) -> Void
    private let onConnectionChange: @Sendable () -> Void

    /// `onListening` is called with the addresses bound (their ports as bound, for port 0);
    /// `onConnectionChange` whenever a connection (a page's request, a tab's WebSocket) is
    /// accepted or closed.
    public init(configuration: WebRelayConfiguration, logger: Logger,
                onListening: @escaping @Sendable ([ListenAddress]) -> Void = { _ in },
                onConnectionChange: @escaping @Sendable () -> Void = {}) {
        self.configuration = configuration
        self.logger = logger
        self.onListening = onListening
        self.onConnectionChange = onConnectionChange
    }

    public func run() async throws {
        let assets = try AssetCatalog(directory: configuration.assetDirectory)
        let group = MultiThreadedEventLoopGroup.singleton
        var servers: [any Channel] = []
        var bound: [ListenAddress] = []
        // The policy names the ports actually bound (port 0 picks one), so it is made once every
        // listener is bound; a connection accepted before that meets an empty policy and is
        // refused (421), never served.
        let policyBox = PolicyBox()
        let claims = RunClaims()
        do {
            for address in configuration.listen {
                let port = address.port == 0 ? (bound.first?.port ?? 0) : address.port
                let channel = try await ServerBootstrap(group: group)
                    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                    .serverChannelOption(.backlog, value: 256)
                    .childChannelOption(.writeBufferWaterMark, value: configuration.writeBufferWaterMark)
                    .childChannelInitializer { [onConnectionChange] channel in
                        onConnectionChange()
                        channel.closeFuture.whenComplete { _ in onConnectionChange() }
                        return channel.eventLoop.makeCompletedFuture {
                            try Self.configure(channel, assets: assets, policy: policyBox.policy, claims: claims, configuration: configuration, logger: logger)
                        }
                    }
                    .bind(host: address.host, port: port).get()
                servers.append(channel)
                bound.append(ListenAddress(host: address.host, port: channel.localAddress?.port ?? port))
            }
        } catch {
            for server in servers { try? await server.close().get() }
            throw error
        }
        policyBox.policy = WebAccessPolicy(
            token: configuration.token, authorities: WebAccessPolicy.authorities(for: bound),
            publicOrigins: Set(configuration.publicOrigins))
        logger.info("Listening", metadata: ["addresses": "\(bound.map(\.description).joined(separator: " "))",
                                            "socket": "\(configuration.controlSocket)"])
        onListening(bound)
        try? await gracefulShutdown()
        logger.info("Shutting down")
        for server in servers { try? await server.close().get() }
    }

    /// One accepted connection: HTTP with the WebSocket upgrade on `/ws`.
    private static func configure(_ channel: any Channel, assets: AssetCatalog, policy: WebAccessPolicy, claims: RunClaims,
                                  configuration: WebRelayConfiguration, logger: Logger) throws {
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: configuration.maximumMessageSize,
            shouldUpgrade: { channel, head in
                let decision = policy.decide(target: head.uri, host: head.headers.first(name: "host"),
                                             origin: head.headers.first(name: "origin"), cookies: head.headers["cookie"])
                // A tab's key (`RunClaims`), when given, must look like one.
                let tabKey = WebAccessPolicy.queryValue("tab", in: head.uri)
                let allowed = AssetCatalog.path(ofTarget: head.uri) == webSocketPath && head.headers.first(name: "origin") != nil
                    && { if case .allow = decision { true } else { false } }() && tabKey.map(RunClaims.isValidKey) != false
                if !allowed { logger.notice("WebSocket refused", metadata: ["decision": "\(decision)", "validTabKey": "\(tabKey.map(RunClaims.isValidKey) != false)"]) }
                return channel.eventLoop.makeSucceededFuture(allowed ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        IdleStateHandler(readTimeout: configuration.pingInterval),
                        NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 16,
                                                    maxAccumulatedFrameSize: configuration.maximumMessageSize),
                        BrowserRelayHandler(configuration: configuration, claims: claims,
                                            tabKey: WebAccessPolicy.queryValue("tab", in: head.uri), logger: logger),
                    ])
                }
            })
        let files = StaticFileHandler(assets: assets, policy: policy, logger: logger)
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withServerUpgrade: (upgraders: [upgrader], completionHandler: { context in
                context.pipeline.removeHandler(name: "web-files", promise: nil)
                context.pipeline.removeHandler(name: RequestTimeoutHandler.name, promise: nil)
            }))
        try channel.pipeline.syncOperations.addHandler(RequestTimeoutHandler(timeout: configuration.requestTimeout, logger: logger),
                                                      name: RequestTimeoutHandler.name)
        try channel.pipeline.syncOperations.addHandler(files, name: "web-files")
    }
}
