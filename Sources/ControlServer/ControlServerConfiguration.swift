/// Where the control server listens and the limits it keeps.
public struct ControlServerConfiguration: Sendable {
    /// Where connections come from.
    public enum Listener: Sendable, Hashable {
        /// A Unix socket bound at this path: a stale socket file is removed, a live one (a daemon
        /// answers on it) is never taken over.
        case path(String)
        /// A listening Unix socket handed over by systemd socket activation (`LISTEN_FDS`).
        case inheritedDescriptor(Int32)
    }

    public var listener: Listener
    /// File mode of a socket bound at a path; with its group this decides who may connect.
    public var socketMode: UInt32
    /// The longest line accepted (1 MiB); longer lines are answered with -32600 and dropped.
    public var maximumLineLength: Int
    /// Messages queued for one client before it is disconnected for not reading.
    public var outboundQueueLimit: Int

    public init(listener: Listener, socketMode: UInt32 = 0o660,
                maximumLineLength: Int = 1 << 20, outboundQueueLimit: Int = 1024) {
        self.listener = listener
        self.socketMode = socketMode
        self.maximumLineLength = maximumLineLength
        self.outboundQueueLimit = outboundQueueLimit
    }
}
