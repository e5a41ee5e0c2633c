import Glibc

/// A dedicated thread's request for real-time scheduling: a policy and a priority it asks for
/// when it starts (`DedicatedThread(name:realTime:onScheduled:body:)`). Whether it gets it is
/// the process's right (`RealTimePolicy`); without the right the thread runs at normal priority.
///
/// Priorities are kept low (1 to 99 exist): they only need to come before every normal thread
/// (a `nice 19` CPU hog included), not before the kernel's own real-time threads or the sound
/// server's.
public struct RealTimeRequest: Sendable, Hashable {
    /// The real-time scheduling policy.
    public enum Policy: Sendable, Hashable {
        /// SCHED_FIFO: runs until it blocks or a higher priority thread is ready.
        case fifo
        /// SCHED_RR: as SCHED_FIFO, but takes turns with threads of the same priority.
        case roundRobin

        /// The kernel's constant (SCHED_FIFO, SCHED_RR).
        public var kernelPolicy: Int32 {
            switch self {
            case .fifo: SCHED_FIFO
            case .roundRobin: SCHED_RR
            }
        }

        /// The kernel's name, as `chrt` and the logs show it.
        public var name: String {
            switch self {
            case .fifo: "SCHED_FIFO"
            case .roundRobin: "SCHED_RR"
            }
        }
    }

    public var policy: Policy
    /// The priority asked for; 0 or less asks for nothing.
    public var priority: Int32

    public init(priority: Int32, policy: Policy = .fifo) {
        self.priority = priority
        self.policy = policy
    }
}
