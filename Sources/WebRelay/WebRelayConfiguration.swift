public import Foundation
public import NIOCore

/// What `activetask-web` serves and where (docs/kiosk.md, "activetask-web").
public struct WebRelayConfiguration: Sendable {
    /// The daemon's control socket each browser tab gets its own connection to.
    public var controlSocket: String
    /// The loopback addresses to listen on.
    public var listen: [ListenAddress]
    /// The origins of TLS reverse proxies in front, whose `Host` and `Origin` are accepted.
    public var publicOrigins: [PublicOrigin]
    /// The token every request and WebSocket must carry.
    public var token: String
    /// The UI's static files.
    public var assetDirectory: URL
    /// A WebSocket message from the browser longer than this closes that socket (1 MiB, as the
    /// control socket's line limit).
    public var maximumMessageSize: Int
    /// A line from the daemon longer than this is dropped (a `tasks.image` answer is under 1 MiB).
    public var maximumDaemonLineSize: Int
    /// How much each side of a relay, and each HTTP connection, holds unsent before it counts as
    /// not writable and the other side stops being read (docs/kiosk.md, "Limits").
    public var writeBufferWaterMark: ChannelOptions.Types.WriteBufferWaterMark
    /// How long a connection may take from its accept (or the end of its previous answer) to the
    /// end of a request; then it is closed (`--request-timeout`).
    public var requestTimeout: TimeAmount
    /// A WebSocket that sent nothing for this long is pinged, and closed when it stays silent
    /// as long again (`--ping-interval`).
    public var pingInterval: TimeAmount
    /// A browser that takes none of what is sent to it for this long is closed
    /// (`--stalled-timeout`).
    public var stalledTimeout: TimeAmount

    public init(controlSocket: String, listen: [ListenAddress], publicOrigins: [PublicOrigin] = [], token: String, assetDirectory: URL,
                maximumMessageSize: Int = 1 << 20, maximumDaemonLineSize: Int = 16 << 20,
                writeBufferWaterMark: ChannelOptions.Types.WriteBufferWaterMark = .init(low: 64 << 10, high: 256 << 10),
                requestTimeout: TimeAmount = .seconds(10), pingInterval: TimeAmount = .seconds(30), stalledTimeout: TimeAmount = .seconds(30)) {
        self.controlSocket = controlSocket
        self.listen = listen
        self.publicOrigins = publicOrigins
        self.token = token
        self.assetDirectory = assetDirectory
        self.maximumMessageSize = maximumMessageSize
        self.maximumDaemonLineSize = maximumDaemonLineSize
        self.writeBufferWaterMark = writeBufferWaterMark
        self.requestTimeout = requestTimeout
        self.pingInterval = pingInterval
        self.stalledTimeout = stalledTimeout
    }

    /// Reads a timeout option's seconds (`--request-timeout 10`, `0.5`): above 0, else an error
    /// that names the option.
    public static func timeout(_ text: String, option: String) throws(WebRelayError) -> TimeAmount {
        guard let seconds = Double(text), seconds > 0, seconds.isFinite, seconds < 86_400 else {
            throw .badTimeout(option: option, value: text)
        }
        return .nanoseconds(Int64(seconds * 1e9))
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
