public import TaskModel

/// Something an async action controller reports while it runs, stamped so that a socket can
/// forward it later and a client can order and de-duplicate what it receives.
public struct AsyncActionEvent: Sendable {
    /// What happened.
    public enum Kind: Sendable {
        /// The status moved forward.
        case statusChanged(AsyncActionStatus)
        /// The controller failed; the result is the `<identifier>_error` result to record.
        /// Always followed by `statusChanged(.failed)`.
        case failed(ErrorResult)
        /// A fact worth telling the front end that does not stop the recording (an overrun, a gap).
        case warning(String)
        /// A figure for a live meter (audio levels, motion samples written), about once a second.
        case progress(AsyncActionProgress)
    }

    /// The identifier of the configuration the controller runs.
    public var identifier: String
    /// CLOCK_BOOTTIME seconds when the event was published.
    public var uptime: Double
    /// 1, 2, 3, … per controller, in publication order.
    public var sequence: UInt64
    /// What happened.
    public var kind: Kind

    public init(identifier: String, uptime: Double, sequence: UInt64, kind: Kind) {
        self.identifier = identifier
        self.uptime = uptime
        self.sequence = sequence
        self.kind = kind
    }

    /// The status this event moved to, if it is a status change.
    public var status: AsyncActionStatus? {
        if case .statusChanged(let status) = kind { return status }
        return nil
    }
}
