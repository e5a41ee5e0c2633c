import Foundation
import Synchronization

/// One OS thread that runs submitted jobs one at a time, in order: the home of code that must
/// never run concurrently (espeak-ng) and must not block the Swift concurrency pool.
final class WorkerThread: Sendable {
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let available = DispatchSemaphore(value: 0)

    init(name: String) {
        let thread = Thread { [self] in
            loop()
        }
        thread.name = name
        thread.start()
    }

    private func loop() {
        while true {
            available.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job()
        }
    }

    /// Runs `body` on the worker thread and returns its result.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws(VoiceError) -> T) async throws(VoiceError) -> T {
        let result: Result<T, VoiceError> = await withCheckedContinuation { continuation in
            jobs.withLock {
                $0.append {
                    do throws(VoiceError) {
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
