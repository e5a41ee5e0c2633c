/// `daemon.info`: what is running and with which devices.
public struct DaemonInfo: Sendable, Hashable, ControlSchemaDescribing, ControlResult {
    /// `activetaskd`.
    public var name: String
    /// The daemon's version.
    public var version: String
    /// The version of this protocol (the OpenRPC document's `info.version`).
    public var protocolVersion: String
    public var pid: Int
    /// Seconds since the daemon started.
    public var uptime: Double
    public var dataDirectory: String
    public var iioURI: String
    public var captureDevice: String
    public var playbackDevice: String
    public var session: ControlSessionState

    public init(name: String, version: String, protocolVersion: String = ControlProtocolVersion.current,
                pid: Int, uptime: Double, dataDirectory: String, iioURI: String,
                captureDevice: String, playbackDevice: String, session: ControlSessionState) {
        self.name = name
        self.version = version
        self.protocolVersion = protocolVersion
        self.pid = pid
        self.uptime = uptime
        self.dataDirectory = dataDirectory
        self.iioURI = iioURI
        self.captureDevice = captureDevice
        self.playbackDevice = playbackDevice
        self.session = session
    }

    public static var schema: JSONSchema {
        .object([
            .init("name", .string()), .init("version", .string()), .init("protocolVersion", .string()),
            .init("pid", .integer(minimum: 1)), .init("uptime", .number), .init("dataDirectory", .string()),
            .init("iioURI", .string()), .init("captureDevice", .string()), .init("playbackDevice", .string()),
            .init("session", .reference(to: ControlSessionState.self)),
        ], required: ["name", "version", "protocolVersion", "pid", "uptime", "dataDirectory", "iioURI",
                      "captureDevice", "playbackDevice", "session"])
    }
}

/// The version of the control protocol.
public enum ControlProtocolVersion {
    public static let current = "1.2.0"
}
