/// Decides what a thread asking for real-time scheduling tries, from what the process may do:
/// a privileged process (CAP_SYS_NICE) gets the priority it asks for; any other gets at most
/// its RLIMIT_RTPRIO soft limit (systemd's `LimitRTPRIO=`), and nothing is tried when that is 0
/// (the default), since the kernel would refuse. Pure: the thread supplies the facts
/// (`DedicatedThread`), the tests a table.
public struct RealTimePolicy: Sendable, Hashable {
    /// What to do.
    public enum Decision: Sendable, Hashable {
        /// Ask the kernel for the request's policy at this priority.
        case apply(priority: Int32)
        /// Ask for nothing: the thread runs at normal priority.
        case skip(SkipReason)
    }

    /// Why nothing is tried.
    public enum SkipReason: Sendable, Hashable {
        /// The request's priority is 0 or less.
        case notRequested
        /// Not privileged, and RLIMIT_RTPRIO allows no real-time priority.
        case noRealTimeLimit
    }

    /// The priorities the policy has (sched_get_priority_min/max: 1...99 on Linux).
    public var priorityRange: ClosedRange<Int32>

    public init(priorityRange: ClosedRange<Int32> = 1...99) {
        self.priorityRange = priorityRange
    }

    /// What to try for `requested`, given the RLIMIT_RTPRIO soft limit (`UInt64.max`:
    /// unlimited) and whether the process has CAP_SYS_NICE (which ignores the limit). The
    /// priority is kept within `priorityRange`, and within the limit when not privileged.
    public func decide(requested: Int32, softLimit: UInt64, isPrivileged: Bool) -> Decision {
        guard requested > 0 else { return .skip(.notRequested) }
        let wanted = min(max(requested, priorityRange.lowerBound), priorityRange.upperBound)
        if isPrivileged { return .apply(priority: wanted) }
        let allowed = min(UInt64(wanted), softLimit)
        guard allowed >= UInt64(priorityRange.lowerBound) else { return .skip(.noRealTimeLimit) }
        return .apply(priority: Int32(allowed))
    }

    /// Whether a `/proc/…/status` text's effective capabilities (`CapEff:`, hexadecimal) hold
    /// CAP_SYS_NICE (bit 23), which lets a thread take any real-time priority. False when the
    /// line is missing or unreadable.
    public static func hasNiceCapability(status: String) -> Bool {
        for line in status.split(separator: "\n") where line.hasPrefix("CapEff:") {
            let digits = line.dropFirst("CapEff:".count).trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            guard let mask = UInt64(digits, radix: 16) else { return false }
            return mask & (1 << capabilitySysNice) != 0
        }
        return false
    }

    /// CAP_SYS_NICE's bit in a capability mask (linux/capability.h).
    static let capabilitySysNice: UInt64 = 23
}
