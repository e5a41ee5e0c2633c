import Foundation
import Synchronization

/// A dedicated OS thread for one blocking loop (an ALSA read or write loop), so that blocking
/// calls never occupy the Swift concurrency pool. `finished()` lets async code await its end.
public final class IOThread: Sendable {
    private struct Completion {
        var isDone = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let completion = Mutex(Completion())

    /// Starts `body` on a new thread named `name`.
    public init(name: String, body: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            body()
            markDone()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    private func markDone() {
        let waiters = completion.withLock { state in
            state.isDone = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether the body has returned.
    public var isFinished: Bool { completion.withLock { $0.isDone } }

    /// Suspends (without blocking a pool thread) until the body has returned.
    public func finished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = completion.withLock { state in
                if state.isDone { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}
