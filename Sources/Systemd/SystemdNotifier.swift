/// Tells the service manager what the daemon is doing (sd_notify(3)): readiness, a one-line
/// status, the start of shutdown and watchdog keep-alives.
///
/// Every method is a no-op returning false when the daemon does not run under systemd
/// (NOTIFY_SOCKET unset), so the daemon calls them unconditionally.
public struct SystemdNotifier: Sendable {
    /// A notifier for the service manager named by NOTIFY_SOCKET.
    public init() {}

    /// `READY=1`, with a status line: the daemon listens and has recovered interrupted runs.
    @discardableResult
    public func ready(status: ServiceStatus? = nil) throws(SystemdError) -> Bool {
        try send(["READY=1"] + Self.statusLine(status))
    }

    /// `STATUS=…`: what the daemon is doing now, shown by `systemctl status`.
    @discardableResult
    public func status(_ status: ServiceStatus) throws(SystemdError) -> Bool {
        try send(Self.statusLine(status))
    }

    /// `STOPPING=1`: shutdown began (recorders are being stopped and runs saved).
    @discardableResult
    public func stopping(status: ServiceStatus? = .stopping) throws(SystemdError) -> Bool {
        try send(["STOPPING=1"] + Self.statusLine(status))
    }

    /// `WATCHDOG=1`: everything makes progress; `WatchdogService` sends it.
    @discardableResult
    public func watchdog() throws(SystemdError) -> Bool {
        try send(["WATCHDOG=1"])
    }

    /// Sends the assignments as one datagram, so that a status and READY=1 arrive together.
    func send(_ assignments: [String]) throws(SystemdError) -> Bool {
        try LibSystemd.notify(assignments.joined(separator: "\n"))
    }

    static func statusLine(_ status: ServiceStatus?) -> [String] {
        status.map { ["STATUS=" + $0.text] } ?? []
    }
}
