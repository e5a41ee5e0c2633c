import Glibc
import SystemCalls

/// A counting semaphore for a dedicated thread to sleep on (POSIX `sem_t`); never waited on
/// from the concurrency pool.
final class Semaphore: @unchecked Sendable {
    private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    init(value: UInt32 = 0) {
        sem_init(semaphore, 0, value)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func signal() {
        sem_post(semaphore)
    }

    /// Waits for a signal; retried when a signal handler interrupts the wait.
    func wait() {
        _ = Syscalls.retryingOnInterrupt { sem_wait(semaphore) }
    }
}
