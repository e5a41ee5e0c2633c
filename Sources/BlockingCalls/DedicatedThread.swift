import Dispatch
import Foundation
import Glibc
import Synchronization
import SystemCalls
import SystemPackage

/// One OS thread for one blocking loop (an IIO refill loop, an ALSA read or write loop), so
/// blocking calls never occupy the Swift concurrency pool. `finished()` lets async code await
/// its end. The body receives the thread's heartbeat and calls `beat()` before each blocking
/// call, which makes a hung call visible in `ThreadHeartbeats`.
public final class DedicatedThread: Sendable {
    private struct Completion {
        var isDone = false
        var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let completion = Mutex(Completion())
    private let scheduling = Mutex<SchedulingOutcome?>(nil)
    /// The thread's liveness, as the watchdog sees it.
    public let heartbeat: ThreadHeartbeat

    /// Starts `body` on a new thread named `name`.
    ///
    /// With `realTime`, the thread first asks for real-time scheduling for itself, as far as
    /// the process may (`RealTimePolicy`), then calls `onScheduled` with the outcome (on the
    /// thread, before `body`; the place to log it once) and runs `body` whatever it was: a
    /// thread that may not have real time runs at normal priority, and never fails for it.
    public init(
        name: String, realTime: RealTimeRequest? = nil, onScheduled: (@Sendable (SchedulingOutcome) -> Void)? = nil,
        body: @escaping @Sendable (ThreadHeartbeat) -> Void
    ) {
        let heartbeat = ThreadHeartbeats.register(name: name)
        self.heartbeat = heartbeat
        let thread = Thread { [self] in
            Self.nameKernelThread(name)
            if let realTime {
                let outcome = Self.applyRealTime(realTime)
                scheduling.withLock { $0 = outcome }
                onScheduled?(outcome)
            }
            body(heartbeat)
            ThreadHeartbeats.unregister(heartbeat)
            markDone()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Names the running thread for the kernel (`top -H`, `ps -L`, core dumps): Foundation's
    /// `Thread.name` does not reach the kernel on Linux, and `pthread_setname_np` is not
    /// visible to Swift without _GNU_SOURCE, so it goes through /proc (15 bytes kept).
    private static func nameKernelThread(_ name: String) {
        guard let descriptor = try? Syscalls.open("/proc/thread-self/comm", .writeOnly, options: [.closeOnExec]) else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { try? Syscalls.writeAll(descriptor, $0) }
        try? Syscalls.close(descriptor)
    }

    private func markDone() {
        let waiters = completion.withLock { state in
            state.isDone = true
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// What became of the thread's real-time request, once the thread has started (nil before,
    /// and always without a request).
    public var schedulingOutcome: SchedulingOutcome? { scheduling.withLock { $0 } }

    /// Whether the body has returned.
    public var isFinished: Bool { completion.withLock { $0.isDone } }

    /// Suspends (without blocking a pool thread) until the body has returned.
    public func finished() async {
        _ = await finished(within: nil)
    }

    /// Suspends until the body has returned (true) or `deadline` has passed (false; the thread
    /// goes on, and shows in `ThreadHeartbeats.stalled` while stuck in a call).
    public func finished(within deadline: Duration?) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let waiter: UInt64? = completion.withLock { state in
                if state.isDone { return nil }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = continuation
                return state.nextWaiter
            }
            guard let waiter else { return continuation.resume(returning: true) }
            if let deadline {
                DispatchQueue.global().asyncAfter(deadline: .now() + deadline.dispatchInterval) { [self] in
                    completion.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume(returning: false)
                }
            }
        }
    }
}
