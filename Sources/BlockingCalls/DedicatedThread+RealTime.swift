import Glibc
import SystemCalls

extension DedicatedThread {
    /// SCHED_RESET_ON_FORK (linux/sched.h; not visible to Swift without _GNU_SOURCE): a child
    /// process forked by a real-time thread starts at normal priority.
    static let resetOnFork: Int32 = 0x4000_0000

    /// Asks for `request` for the calling thread as far as the process may (`RealTimePolicy`),
    /// and says what came of it. Never throws: a thread that may not have real time goes on at
    /// normal priority.
    static func applyRealTime(_ request: RealTimeRequest) -> SchedulingOutcome {
        let limit: UInt64
        let range: ClosedRange<Int32>
        do {
            limit = try Syscalls.realTimePriorityLimit().soft
            range = try Syscalls.priorityRange(request.policy.kernelPolicy)
        } catch {
            return .failed(error)
        }
        let decision = RealTimePolicy(priorityRange: range)
            .decide(requested: request.priority, softLimit: limit, isPrivileged: hasNiceCapability())
        switch decision {
        case .skip(let reason):
            return .notTried(reason, limit: limit)
        case .apply(let priority):
            do {
                try Syscalls.setScheduler(request.policy.kernelPolicy | resetOnFork, priority: priority)
                return .realTime(policy: request.policy, priority: priority, requested: request.priority)
            } catch {
                return .failed(error)
            }
        }
    }

    /// Whether the calling thread has CAP_SYS_NICE, from /proc/thread-self/status; false when
    /// it cannot be read (the limit then decides).
    private static func hasNiceCapability() -> Bool {
        guard let bytes = try? SmallFile.contents(of: "/proc/thread-self/status") else { return false }
        return RealTimePolicy.hasNiceCapability(status: String(decoding: bytes, as: UTF8.self))
    }
}
