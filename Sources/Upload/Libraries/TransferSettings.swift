/// How a transfer behaves on the network: time-outs, the CA file, the speed limit.
public struct TransferSettings: Sendable, Hashable {
    /// Seconds to establish a connection.
    public var connectTimeoutSeconds: Int = 20
    /// A transfer slower than 1 byte/s for this many seconds (sending or waiting for the
    /// answer) is abandoned as stalled: libcurl's CURLOPT_LOW_SPEED_LIMIT/_TIME. The setting
    /// `stallSeconds`.
    public var stallSeconds: Int = 60
    /// A PEM bundle of CAs to trust instead of the system's.
    public var caFile: String?
    /// Upload speed limit in bytes per second; nil for none.
    public var maxBytesPerSecond: Int64?

    public init() {}
}
