public import SystemCalls

/// What became of a dedicated thread's request for real-time scheduling
/// (`DedicatedThread.schedulingOutcome`). Only `realTime` changes the thread's scheduling;
/// in every other case it runs its body at normal priority.
public enum SchedulingOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The thread runs with this policy and priority (`requested` is what it asked for; it can
    /// be more when RLIMIT_RTPRIO allowed less).
    case realTime(policy: RealTimeRequest.Policy, priority: Int32, requested: Int32)
    /// Nothing was tried, for `reason` (`limit` is the RLIMIT_RTPRIO soft limit).
    case notTried(RealTimePolicy.SkipReason, limit: UInt64)
    /// The kernel refused (EPERM: `RestrictRealtime=yes` or a system-call filter without
    /// sched_setscheduler), or the limit could not be read.
    case failed(SystemCallError)

    /// Whether the thread got real-time scheduling.
    public var isRealTime: Bool {
        if case .realTime = self { return true }
        return false
    }

    /// Whether something failed that the configuration says should have worked: worth a
    /// warning, where the other outcomes are information.
    public var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .realTime(let policy, let priority, let requested):
            let lowered = priority < requested ? " (\(requested) was asked for; RLIMIT_RTPRIO allows \(priority))" : ""
            return "The thread runs with real-time scheduling, \(policy.name) at priority \(priority)\(lowered)."
        case .notTried(.notRequested, _):
            return "The thread runs at normal priority: no real-time priority was asked for."
        case .notTried(.noRealTimeLimit, let limit):
            return "The thread runs at normal priority: the process has no CAP_SYS_NICE and its RLIMIT_RTPRIO is \(limit), so real-time scheduling was not tried (docs/service.md, \"Real-time scheduling\")."
        case .failed(let error):
            return "The thread runs at normal priority: \(error.description)"
        }
    }

    /// The outcome as log metadata: `scheduling` (`SCHED_FIFO`, `normal`), `priority`, and
    /// `rtprioLimit` or `errno` where they apply.
    public var logFields: [String: String] {
        switch self {
        case .realTime(let policy, let priority, let requested):
            return ["scheduling": policy.name, "priority": "\(priority)", "requestedPriority": "\(requested)"]
        case .notTried(let reason, let limit):
            let limitText = limit == UInt64.max ? "unlimited" : "\(limit)"
            return ["scheduling": "normal", "reason": reason == .notRequested ? "notRequested" : "noRealTimeLimit", "rtprioLimit": limitText]
        case .failed(let error):
            return ["scheduling": "normal", "reason": "failed", "call": error.call, "errno": "\(error.errno.rawValue)"]
        }
    }
}
