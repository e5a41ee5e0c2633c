import Dispatch
import Glibc
import Synchronization

/// Runs one blocking call (opening a libiio context, configuring an ALSA PCM, an fsync) on a
/// dedicated thread of its own and suspends the caller meanwhile, so that an actor and the
/// Swift concurrency pool never block. A fresh thread per call: a call that hangs (an `ip:`
/// connect to a host that never answers) holds only its own thread, never a queue of others.
public enum BlockingCall {
    /// Runs `body` on a new thread (named `blocking call` in the heartbeats) and returns its
    /// result. Prefer the named form: the name is what a watchdog reports when the call hangs.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await run("blocking call", deadline: nil, body)
    }

    /// Runs `body` on a new thread named `name` and returns its result.
    public static func run<T: Sendable>(
        _ name: String, _ body: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await run(name, deadline: nil, body)
    }

    /// Runs `body` on a new thread named `name`; throws `BlockingCallTimeout` when it has not
    /// returned within `deadline` (the thread is left to finish on its own and its result is
    /// dropped).
    public static func run<T: Sendable>(
        _ name: String, deadline: Duration?, _ body: @escaping @Sendable () throws -> T
    ) async throws -> T {
        let handOff = HandOff()
        let result = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let pending = PendingResult(continuation)
            _ = DedicatedThread(name: name) { _ in
                let result = Result { try body() }
                handOff.pass()
                pending.resume(with: result)
            }
            if let deadline {
                DispatchQueue.global().asyncAfter(deadline: .now() + deadline.dispatchInterval) {
                    pending.resume(with: .failure(BlockingCallTimeout(name: name, deadline: deadline)))
                }
            }
        }
        handOff.pass()
        return result
    }
}

/// Orders what the call's thread wrote before the awaiting task reads it, through a pthread mutex
/// ThreadSanitizer sees. The continuation orders it too, but through the concurrency runtime's
/// own atomics, which ThreadSanitizer does not see when the call ends before the task has
/// suspended: it then reported a race between a value made on the call's thread and its first
/// use after the await (a CaptureSession made by the call and started after it).
private final class HandOff: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Locks and unlocks the mutex: on the call's thread after its result is made, then on the
    /// awaiting side after the continuation returned, so the second pass orders after the first.
    func pass() {
        pthread_mutex_lock(mutex)
        pthread_mutex_unlock(mutex)
    }
}

/// A continuation resumed by whichever comes first: the call's result or its deadline.
private final class PendingResult<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func resume(with result: Result<T, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}

extension Duration {
    /// The duration for `DispatchTime` arithmetic.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
