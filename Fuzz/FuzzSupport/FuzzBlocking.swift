import Foundation

/// Waits on the fuzzer's thread for async code under test: libFuzzer calls a target
/// synchronously, and the daemon's handler and dispatcher are async.
public enum FuzzBlocking {
    /// Runs `body` in a task and blocks the calling (libFuzzer's) thread until it returns.
    /// Never call it from a task: the caller's thread is parked meanwhile.
    public static func run<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
        let handover = Handover<Value>()
        let done = DispatchSemaphore(value: 0)
        Task {
            handover.value = await body()
            done.signal()
        }
        done.wait()
        return handover.value!
    }
}

/// The value crossing from the task to the waiting thread; the semaphore orders the two accesses.
private final class Handover<Value>: @unchecked Sendable {
    var value: Value?
}
