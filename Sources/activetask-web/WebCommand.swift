import ArgumentParser
import CodePageOut
import Foundation
import Logging
import ServiceLifecycle
import WebRelay

/// `activetask-web`: the kiosk UI's server (docs/kiosk.md). Argument parsing and bootstrap only;
/// the server is `WebRelayServer`.
@main
struct WebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activetask-web",
        abstract: "Serves the touch UI and relays each browser tab to activetaskd's control socket.",
        discussion: "Prints the address it listens on; the token every request needs is in --token-file (docs/kiosk.md).")

    @Option(help: "activetaskd's control socket (default: ACTIVETASK_SOCKET, else /run/activetask/control.sock).")
    var socket: String?

    @Option(help: "HOST:PORT to listen on, loopback only without TLS (repeatable; default 127.0.0.1:8470 and [::1]:8470).")
    var listen: [String] = []

    @Option(name: .customLong("tls-certificate"), help: "PEM certificate chain to serve HTTPS with (with --tls-key); needed to listen on a non-loopback address.")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "The certificate's unencrypted PEM private key.")
    var tlsKey: String?

    @Option(name: .customLong("token-file"), help: "Where the token is written at start (mode 0600); the kiosk's launch page goes beside it, as FILE.html.")
    var tokenFile = "/run/activetask-web/token"

    @Option(help: "The folder of the UI files (default: the ones installed with the executable).")
    var assets: String?

    mutating func run() async throws {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let logger = Logger(label: "activetask-web")
        do {
            let tls: WebTLSIdentity?
            switch (tlsCertificate, tlsKey) {
            case (let certificate?, let key?): tls = try WebTLSIdentity(certificateChain: certificate, privateKey: key)
            case (nil, nil): tls = nil
            default: throw WebRelayError.tls("--tls-certificate and --tls-key go together; pass both, or neither for plain HTTP on loopback.")
            }
            let addresses = try listen.isEmpty
                ? ListenAddress.loopback()
                : listen.map { text throws(WebRelayError) in try ListenAddress.parse(text, tls: tls != nil) }
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
                configuration: WebRelayConfiguration(controlSocket: controlSocket, listen: addresses, tls: tls, token: token,
                                                     assetDirectory: assetDirectory),
                logger: logger,
                onListening: { bound in
                    // Scripts and tests wait for this line; the token is not printed (it is in the file).
                    let urls = ListenAddress.urls(for: bound, tlsNames: tls?.names)
                    // The kiosk's launch page posts to the first; it is written before the line,
                    // so whoever waits for the line finds the page.
                    if let first = urls.first {
                        do {
                            try WebLaunchPage.write(token: token, origin: String(first.dropLast()), besideTokenFile: tokenFile)
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
