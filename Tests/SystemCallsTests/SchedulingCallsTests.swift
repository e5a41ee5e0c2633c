import Glibc
import SystemCalls
import SystemPackage
import Testing

/// The scheduling and limit wrappers. Nothing here changes the test's own thread: the only
/// calls of sched_setscheduler either fail or set what the thread already has
/// (`RealTimeThreadTests` in BlockingCallsTests gives a thread of its own SCHED_FIFO).
@Suite("System calls: scheduling and limits")
struct SchedulingCallsTests {
    @Test("A test thread runs SCHED_OTHER at priority 0")
    func readsOwnScheduling() throws {
        #expect(try Syscalls.scheduler() & ~0x4000_0000 == SCHED_OTHER)
        #expect(try Syscalls.schedulingPriority() == 0)
    }

    @Test("The priority ranges are Linux's", arguments: [(SCHED_FIFO, Int32(1)...99), (SCHED_RR, 1...99), (SCHED_OTHER, 0...0)])
    func priorityRanges(policy: Int32, range: ClosedRange<Int32>) throws {
        #expect(try Syscalls.priorityRange(policy) == range)
    }

    @Test("RLIMIT_RTPRIO is read as getrlimit gives it")
    func realTimeLimit() throws {
        var expected = rlimit()
        #expect(getrlimit(__rlimit_resource_t(__RLIMIT_RTPRIO.rawValue), &expected) == 0)
        let limit = try Syscalls.realTimePriorityLimit()
        #expect(limit.soft == UInt64(expected.rlim_cur))
        #expect(limit.hard == UInt64(expected.rlim_max))
        #expect(limit.soft <= limit.hard)
    }

    @Test("Setting SCHED_OTHER at priority 0 keeps the thread as it is")
    func setsNormal() throws {
        try Syscalls.setScheduler(SCHED_OTHER, priority: 0)
        #expect(try Syscalls.scheduler() & ~0x4000_0000 == SCHED_OTHER)
    }

    /// A call that fails, and its error.
    struct Failure: Sendable, CustomTestStringConvertible {
        var name: String
        var call: String
        var path: String?
        var run: @Sendable () throws(SystemCallError) -> Void
        var testDescription: String { name }
    }

    @Test("A refused call throws a SystemCallError naming it, and EINVAL's reason", arguments: [
        Failure(name: "SCHED_FIFO at 100", call: "sched_setscheduler") { () throws(SystemCallError) in
            try Syscalls.setScheduler(SCHED_FIFO, priority: 100)
        },
        Failure(name: "SCHED_OTHER at 5", call: "sched_setscheduler") { () throws(SystemCallError) in
            try Syscalls.setScheduler(SCHED_OTHER, priority: 5)
        },
        Failure(name: "the range of an unknown policy", call: "sched_get_priority_min") { () throws(SystemCallError) in
            _ = try Syscalls.priorityRange(99)
        },
    ])
    func failures(_ failure: Failure) {
        #expect {
            try failure.run()
        } throws: { error in
            guard let error = error as? SystemCallError else { return false }
            return error.call == failure.call && error.errno == .invalidArgument && error.path == nil
                && error.description == "\(failure.call) failed: Invalid argument (errno 22)."
        }
    }
}
