public import Foundation

/// What `activetask-web` serves and where (docs/kiosk.md, "activetask-web").
public struct WebRelayConfiguration: Sendable {
    /// The daemon's control socket each browser tab gets its own connection to.
    public var controlSocket: String
    /// The addresses to listen on: loopback only unless `tls` is given.
    public var listen: [ListenAddress]
    /// The certificate and key every connection is encrypted with; nil: plain HTTP (loopback).
    public var tls: WebTLSIdentity?
    /// The token every request and WebSocket must carry.
    public var token: String
    /// The UI's static files.
    public var assetDirectory: URL
    /// A WebSocket message from the browser longer than this closes that socket (1 MiB, as the
    /// control socket's line limit).
    public var maximumMessageSize: Int
    /// A line from the daemon longer than this is dropped (a `tasks.image` answer is under 1 MiB).
    public var maximumDaemonLineSize: Int

    public init(controlSocket: String, listen: [ListenAddress], tls: WebTLSIdentity? = nil, token: String, assetDirectory: URL,
                maximumMessageSize: Int = 1 << 20, maximumDaemonLineSize: Int = 16 << 20) {
        self.controlSocket = controlSocket
        self.listen = listen
        self.tls = tls
        self.token = token
        self.assetDirectory = assetDirectory
        self.maximumMessageSize = maximumMessageSize
        self.maximumDaemonLineSize = maximumDaemonLineSize
    }

    /// The UI files as SwiftPM copies them beside the executable (`ActiveTask_WebRelay.resources`,
    /// the layout on Linux, with or without `--static-swift-stdlib`), else where an install puts
    /// them (`../share/activetask/web` from the executable); nil when neither exists.
    public static func defaultAssetDirectory(executable: URL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()) -> URL? {
        let folder = executable.deletingLastPathComponent()
        let candidates = [
            folder.appendingPathComponent("ActiveTask_WebRelay.resources/Assets"),
            folder.deletingLastPathComponent().appendingPathComponent("share/activetask/web"),
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.html").path) }
    }
}
