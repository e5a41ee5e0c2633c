import SystemCalls
import SystemPackage
import Testing

@testable import BlockingCalls

/// The decision a thread asking for real-time scheduling makes from the process's rights.
@Suite("Real-time policy: what a thread tries")
struct RealTimePolicyTests {
    /// One row: the facts, and what must be tried.
    struct Row: Sendable, CustomTestStringConvertible {
        var requested: Int32
        var softLimit: UInt64
        var isPrivileged: Bool
        var expected: RealTimePolicy.Decision
        var testDescription: String { "ask \(requested), RLIMIT_RTPRIO \(softLimit == .max ? "unlimited" : "\(softLimit)"), \(isPrivileged ? "CAP_SYS_NICE" : "no capability")" }
    }

    static let rows: [Row] = [
        // The shipped unit: no capability, RLIMIT_RTPRIO 0 (RestrictRealtime=yes).
        Row(requested: 10, softLimit: 0, isPrivileged: false, expected: .skip(.noRealTimeLimit)),
        // The real-time drop-in: LimitRTPRIO=10.
        Row(requested: 10, softLimit: 10, isPrivileged: false, expected: .apply(priority: 10)),
        Row(requested: 9, softLimit: 10, isPrivileged: false, expected: .apply(priority: 9)),
        // A lower limit lowers the priority rather than giving up.
        Row(requested: 10, softLimit: 5, isPrivileged: false, expected: .apply(priority: 5)),
        Row(requested: 10, softLimit: 1, isPrivileged: false, expected: .apply(priority: 1)),
        Row(requested: 10, softLimit: .max, isPrivileged: false, expected: .apply(priority: 10)),
        // CAP_SYS_NICE (root) ignores the limit.
        Row(requested: 10, softLimit: 0, isPrivileged: true, expected: .apply(priority: 10)),
        Row(requested: 10, softLimit: 5, isPrivileged: true, expected: .apply(priority: 10)),
        // Priorities beyond the policy's range are brought into it.
        Row(requested: 150, softLimit: .max, isPrivileged: true, expected: .apply(priority: 99)),
        Row(requested: 150, softLimit: 200, isPrivileged: false, expected: .apply(priority: 99)),
        // 0 or less asks for nothing, whatever the rights.
        Row(requested: 0, softLimit: .max, isPrivileged: true, expected: .skip(.notRequested)),
        Row(requested: -3, softLimit: 10, isPrivileged: false, expected: .skip(.notRequested)),
    ]

    @Test("The decision follows the priority asked for, RLIMIT_RTPRIO and CAP_SYS_NICE", arguments: rows)
    func decides(_ row: Row) {
        let decision = RealTimePolicy(priorityRange: 1...99)
            .decide(requested: row.requested, softLimit: row.softLimit, isPrivileged: row.isPrivileged)
        #expect(decision == row.expected)
    }

    @Test("CAP_SYS_NICE is read from the status file's effective capabilities", arguments: [
        ("Name:\tx\nCapInh:\t0000000000000000\nCapEff:\t000001fffeffffff\n", true),  // root in a container (no CAP_SYS_RESOURCE)
        ("CapEff:\t0000000000800000\n", true),  // CAP_SYS_NICE alone
        ("CapPrm:\t0000000000800000\nCapEff:\t0000000000000000\n", false),  // permitted, not effective
        ("CapEff:\t0000000000000000\n", false),  // the daemon's user
        ("CapEff:\tnot hex\n", false),
        ("Name:\tx\n", false),
    ])
    func niceCapability(status: String, expected: Bool) {
        #expect(RealTimePolicy.hasNiceCapability(status: status) == expected)
    }

    @Test("Each outcome says in one sentence at which priority the thread runs, and why", arguments: [
        (SchedulingOutcome.realTime(policy: .fifo, priority: 10, requested: 10),
         "The thread runs with real-time scheduling, SCHED_FIFO at priority 10."),
        (SchedulingOutcome.realTime(policy: .roundRobin, priority: 5, requested: 10),
         "The thread runs with real-time scheduling, SCHED_RR at priority 5 (10 was asked for; RLIMIT_RTPRIO allows 5)."),
        (SchedulingOutcome.notTried(.noRealTimeLimit, limit: 0),
         "The thread runs at normal priority: the process has no CAP_SYS_NICE and its RLIMIT_RTPRIO is 0, so real-time scheduling was not tried (docs/service.md, \"Real-time scheduling\")."),
        (SchedulingOutcome.failed(.init("sched_setscheduler", path: nil, errno: .notPermitted)),
         "The thread runs at normal priority: sched_setscheduler failed: Operation not permitted (errno 1)."),
    ])
    func describes(outcome: SchedulingOutcome, sentence: String) {
        #expect(outcome.description == sentence)
        if case .realTime(let policy, let priority, _) = outcome {
            #expect(outcome.logFields["scheduling"] == policy.name)
            #expect(outcome.logFields["priority"] == "\(priority)")
        } else {
            #expect(outcome.logFields["scheduling"] == "normal")
        }
    }
}
