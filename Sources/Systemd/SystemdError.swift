/// A libsystemd call that failed, with the C library's message for its error code.
public struct SystemdError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The positive errno value libsystemd returned (negated).
    public var code: Int32
    /// What was being done, for example `send "READY=1" to the service manager`.
    public var operation: String
    /// `strerror(code)`.
    public var reason: String

    /// An error for `code` (positive errno) while doing `operation`, with its `reason`.
    public init(code: Int32, operation: String, reason: String) {
        self.code = code
        self.operation = operation
        self.reason = reason
    }

    public var description: String {
        "Could not \(operation): \(reason) (errno \(code)). \(advice)"
    }

    /// What a person can do about this error.
    public var advice: String {
        switch code {
        case 13, 1: "Check that the service may write to the socket (NOTIFY_SOCKET, /run/systemd/journal/socket) and that the unit allows AF_UNIX."
        case 2, 111: "The socket systemd named is gone; start the daemon through its unit, or unset NOTIFY_SOCKET and JOURNAL_STREAM when running it by hand."
        case 22: "The environment systemd passed (NOTIFY_SOCKET, LISTEN_FDS, LISTEN_PID, WATCHDOG_USEC) is malformed; start the daemon through its unit."
        default: "Check the unit with systemctl status and journalctl."
        }
    }
}
