import Foundation

/// A value shared between callers and a dedicated thread, read and changed only under one
/// condition lock, that a thread can wait on until the value says it may go on (what
/// `Synchronization.Mutex` cannot: it has no condition to wait on).
///
/// Every change wakes every waiter, who looks at the value again: a waiter never misses a
/// change, and no caller has to remember to signal.
public final class ConditionGuarded<Value>: @unchecked Sendable {
    // Unchecked: `value` is touched only inside `condition.lock()`/`unlock()` below
    // (ThreadSanitizer runs the player's tests, docs/testing.md).
    private let condition = NSCondition()
    private var value: Value

    /// What a waiting body decides after looking at the value.
    public enum Decision<Result> {
        /// Done: `wait(_:)` returns this.
        case done(Result)
        /// Not yet: sleep until CLOCK_MONOTONIC seconds `until` (nil: until the next change),
        /// then look again.
        case wait(until: Double?)
    }

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value under the lock; wakes every waiter afterwards.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Runs `body` under the lock until it decides `.done`, sleeping as it asks in between
    /// (blocking: call it from a dedicated thread, never from the concurrency pool). `body` may
    /// change the value; a change wakes the other waiters. `now` gives CLOCK_MONOTONIC seconds.
    public func wait<Result>(now: () -> Double, _ body: (inout Value) -> Decision<Result>) -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        while true {
            switch body(&value) {
            case .done(let result):
                return result
            case .wait(let until?):
                let left = until - now()
                if left > 0 { _ = condition.wait(until: Date(timeIntervalSinceNow: left)) }
            case .wait(nil):
                condition.wait()
            }
        }
    }
}
