import Foundation
import Glibc
import Synchronization
import SystemCalls
import Testing

@testable import BlockingCalls

/// Dedicated threads asking for real-time scheduling, in this process: with the right (the
/// tests run as root, with CAP_SYS_NICE) the thread gets SCHED_FIFO before its body runs;
/// without it, the body runs at normal priority. A process without the right is run by
/// `PlaybackSchedulingTests` (AudioTests), as uid 65534 with RLIMIT_RTPRIO 0.
@Suite("Dedicated threads with a real-time request")
struct RealTimeThreadTests {
    /// What the body saw of its own scheduling.
    struct Seen: Sendable, Equatable {
        var policy: Int32
        var priority: Int32
    }

    /// Runs a dedicated thread with `request` and returns what its body saw and the outcome.
    static func run(_ request: RealTimeRequest?) async throws -> (seen: Seen?, outcome: SchedulingOutcome?, reported: SchedulingOutcome?) {
        let seen = Mutex<Seen?>(nil)
        let reported = Mutex<SchedulingOutcome?>(nil)
        let thread = DedicatedThread(name: "rt-test", realTime: request, onScheduled: { outcome in
            reported.withLock { $0 = outcome }
        }) { _ in
            let policy = (try? Syscalls.scheduler()) ?? -1
            let priority = (try? Syscalls.schedulingPriority()) ?? -1
            seen.withLock { $0 = Seen(policy: policy & ~DedicatedThread.resetOnFork, priority: priority) }
        }
        #expect(await thread.finished(within: .seconds(5)))
        return (seen.withLock { $0 }, thread.schedulingOutcome, reported.withLock { $0 })
    }

    /// What this process may do, from the same facts the thread reads.
    static var processMayUseRealTime: Bool {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let limit = (try? Syscalls.realTimePriorityLimit().soft) ?? 0
        return RealTimePolicy.hasNiceCapability(status: status) || limit >= 10
    }

    @Test("A thread asking for SCHED_FIFO 10 gets it before its body runs when the process may, and runs at normal priority when not")
    func asksForFIFO() async throws {
        let (seen, outcome, reported) = try await Self.run(RealTimeRequest(priority: 10))
        #expect(outcome == reported)
        if Self.processMayUseRealTime {
            #expect(seen == Seen(policy: SCHED_FIFO, priority: 10))
            #expect(outcome == .realTime(policy: .fifo, priority: 10, requested: 10))
        } else {
            #expect(seen == Seen(policy: SCHED_OTHER, priority: 0))
            #expect(outcome?.isRealTime == false)
        }
        // The thread that created it is untouched.
        #expect(try Syscalls.scheduler() & ~DedicatedThread.resetOnFork == SCHED_OTHER)
    }

    @Test("SCHED_RR is asked for the same way")
    func asksForRoundRobin() async throws {
        let (seen, outcome, _) = try await Self.run(RealTimeRequest(priority: 3, policy: .roundRobin))
        if Self.processMayUseRealTime {
            #expect(seen == Seen(policy: SCHED_RR, priority: 3))
            #expect(outcome == .realTime(policy: .roundRobin, priority: 3, requested: 3))
        } else {
            #expect(seen == Seen(policy: SCHED_OTHER, priority: 0))
        }
    }

    @Test("Priority 0 tries nothing, and no request leaves no outcome; both bodies run at normal priority")
    func asksForNothing() async throws {
        let zero = try await Self.run(RealTimeRequest(priority: 0))
        #expect(zero.seen == Seen(policy: SCHED_OTHER, priority: 0))
        guard case .notTried(.notRequested, _) = zero.outcome else {
            Issue.record("Priority 0 gave \(String(describing: zero.outcome)).")
            return
        }
        let none = try await Self.run(nil)
        #expect(none.seen == Seen(policy: SCHED_OTHER, priority: 0))
        #expect(none.outcome == nil)
        #expect(none.reported == nil)
    }
}
