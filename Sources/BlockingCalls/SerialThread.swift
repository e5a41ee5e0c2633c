import Synchronization

/// One long-lived OS thread that runs submitted jobs one at a time, in order: the home of a
/// library that must never run concurrently (espeak-ng keeps process-wide state) and must not
/// block the Swift concurrency pool. Its heartbeat is idle between jobs.
public final class SerialThread: Sendable {
    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
    }

    private let queue = Mutex(Queue())
    private let available = Semaphore()

    /// Starts the thread named `name`; it lives as long as the process.
    public init(name: String) {
        _ = DedicatedThread(name: name) { [self] heartbeat in
            while true {
                heartbeat.idle()
                available.wait()
                heartbeat.beat()
                let job = queue.withLock { $0.jobs.removeFirst() }
                job()
            }
        }
    }

    /// Runs `body` on the thread after the jobs already queued and returns its result.
    public func run<T: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> T
    ) async throws(Failure) -> T {
        let result: Result<T, Failure> = await withCheckedContinuation { continuation in
            queue.withLock {
                $0.jobs.append {
                    do throws(Failure) {
                        continuation.resume(returning: .success(try body()))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
            available.signal()
        }
        return try result.get()
    }
}
