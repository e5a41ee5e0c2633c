import Synchronization

/// Carries the first failure of a running recording from the thread that found it (a reader or
/// capture thread) to the controller waiting for it. Later failures are dropped; `close()` ends
/// the wait without a failure.
public final class RecordingFailureSignal<Failure: Sendable>: Sendable {
    private struct State {
        var failure: Failure?
        var isClosed = false
        var waiters: [UInt64: CheckedContinuation<Failure?, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Records `failure` unless one was recorded or the signal closed; returns whether it did.
    @discardableResult
    public func report(_ failure: Failure) -> Bool {
        let waiters: [CheckedContinuation<Failure?, Never>]? = state.withLock { state in
            guard state.failure == nil, !state.isClosed else { return nil }
            state.failure = failure
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiters?.forEach { $0.resume(returning: failure) }
        return waiters != nil
    }

    /// Ends every wait without a failure (the recording ended normally).
    public func close() {
        let waiters = state.withLock { state in
            state.isClosed = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    /// The failure recorded, if any.
    public var failure: Failure? { state.withLock { $0.failure } }

    /// Waits for the failure; nil when the signal closed or the waiting task was cancelled.
    public func wait() async -> Failure? {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Failure?, Never>) in
                let immediate: Failure?? = state.withLock { state in
                    if let failure = state.failure { return .some(failure) }
                    if state.isClosed || Task.isCancelled { return .some(nil) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
        }
    }
}
