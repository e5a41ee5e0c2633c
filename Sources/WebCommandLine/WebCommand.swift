public import ArgumentParser
import CodePageOut
import Foundation
import Logging
import ServiceLifecycle
import WebRelay

/// `activetask-web`: the kiosk UI's server (docs/kiosk.md). Argument parsing and bootstrap only;
/// the server is `WebRelayServer`.
public struct WebCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "activetask-web",
        abstract: "Serves the touch UI and relays each browser tab to activetaskd's control socket.",
        discussion: "Prints the address it listens on; the token every request needs is in --token-file (docs/kiosk.md).")

    @Option(help: "activetaskd's control socket (default: ACTIVETASK_SOCKET, else /run/activetask/control.sock).")
    var socket: String?

    @Option(help: "HOST:PORT to listen on, loopback only (repeatable; default 127.0.0.1:8470 and [::1]:8470).")
    var listen: [String] = []

    @Option(name: .customLong("public-origin"),
            help: "https://HOST[:PORT] of a TLS reverse proxy in front (caddy, nginx) whose Host and Origin are accepted (repeatable; docs/kiosk.md, \"TLS\").")
    var publicOrigin: [String] = []

    @Option(name: .customLong("launch-origin"),
            help: "The origin the launch page posts the token to: one of the --public-origin's, for a kiosk that goes through the TLS proxy (default: the first address listened on).")
    var launchOrigin: String?

    @Option(name: .customLong("tls-certificate"), help: ArgumentHelp("Refused: TLS is a reverse proxy's (docs/kiosk.md, \"TLS\").", visibility: .hidden))
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("Refused, with --tls-certificate.", visibility: .hidden))
    var tlsKey: String?

    @Option(name: .customLong("request-timeout"), help: "Seconds a connection has for its request, from its accept or its previous answer (default 10).")
    var requestTimeout = "10"

    @Option(name: .customLong("ping-interval"), help: "Seconds of silence after which a WebSocket is pinged, and closed after as many more (default 30).")
    var pingInterval = "30"

    @Option(name: .customLong("stalled-timeout"), help: "Seconds a browser may take nothing of what is sent to it before it is closed (default 30).")
    var stalledTimeout = "30"

    @Option(name: .customLong("token-file"), help: "Where the token is written at start (mode 0600); the kiosk's launch page goes beside it, as FILE.html.")
    var tokenFile = "/run/activetask-web/token"

    @Option(help: "The folder of the UI files (default: the ones installed with the executable).")
    var assets: String?

    public init() {}

    public mutating func run() async throws {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let logger = Logger(label: "activetask-web")
        do {
            guard tlsCertificate == nil, tlsKey == nil else { throw WebRelayError.tlsOptionsGiven }
            let addresses = try listen.isEmpty ? ListenAddress.loopback() : listen.map { text throws(WebRelayError) in try ListenAddress.parse(text) }
            let publicOrigins = try publicOrigin.map { text throws(WebRelayError) in try PublicOrigin.parse(text) }
            let launchOrigin = try launchOrigin.map { text throws(WebRelayError) in
                let origin = try PublicOrigin.parse(text)
                guard publicOrigins.contains(origin) else { throw .launchOriginNotPublic(text) }
                return origin
            }
            let requestTimeout = try WebRelayConfiguration.timeout(requestTimeout, option: "--request-timeout")
            let pingInterval = try WebRelayConfiguration.timeout(pingInterval, option: "--ping-interval")
            let stalledTimeout = try WebRelayConfiguration.timeout(stalledTimeout, option: "--stalled-timeout")
            guard let assetDirectory = assets.map({ URL(fileURLWithPath: $0) }) ?? WebRelayConfiguration.defaultAssetDirectory() else {
                throw WebRelayError.noAssets("beside \(CommandLine.arguments[0])")
            }
            let token = WebToken.make()
            let tokenFile = tokenFile
            try WebToken.write(token, to: tokenFile)
            let controlSocket = socket ?? ProcessInfo.processInfo.environment["ACTIVETASK_SOCKET"] ?? "/run/activetask/control.sock"
            // Code that ran once (start-up, a page load, a tab connecting) is paged out once the
            // connections have been quiet for 3 s (docs/kiosk.md, "Memory").
            let pageOut = IdleCodePageOut(quietPeriod: .seconds(3), logger: logger)
            let server = WebRelayServer(
                configuration: WebRelayConfiguration(controlSocket: controlSocket, listen: addresses, publicOrigins: publicOrigins,
                                                     token: token, assetDirectory: assetDirectory, requestTimeout: requestTimeout,
                                                     pingInterval: pingInterval, stalledTimeout: stalledTimeout),
                logger: logger,
                onListening: { bound in
                    // Scripts and tests wait for this line; the token is not printed (it is in the file).
                    let urls = ListenAddress.urls(for: bound, publicOrigins: publicOrigins)
                    // The kiosk's launch page posts to the first (a loopback address), or to
                    // --launch-origin; it is written before the line, so whoever waits for the
                    // line finds the page.
                    if let origin = launchOrigin?.description ?? urls.first.map({ String($0.dropLast()) }) {
                        do {
                            try WebLaunchPage.write(token: token, origin: origin, besideTokenFile: tokenFile)
                        } catch {
                            logger.error("The launch page could not be written; the kiosk cannot open the UI without it", metadata: ["error": "\(error)"])
                        }
                    }
                    FileHandle.standardOutput.write(Data("activetask-web listening on \(urls.joined(separator: " "))\n".utf8))
                },
                onConnectionChange: { pageOut.note(busy: false) })
            let group = ServiceGroup(services: [pageOut, server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            try await group.run()
        } catch let error as WebRelayError {
            FileHandle.standardError.write(Data("activetask-web: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
