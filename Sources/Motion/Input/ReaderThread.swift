import Foundation

/// A dedicated thread for a blocking read loop (libiio refill, paced simulation), so blocking
/// never happens on the Swift concurrency pool. `join()` waits for the loop to return.
final class ReaderThread: @unchecked Sendable {
    private let lock = NSLock()
    private var finished = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var thread: Thread?

    /// Starts `body` on a new thread named `name`.
    init(name: String, body: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            body()
            self.markFinished()
        }
        thread.name = name
        thread.qualityOfService = .userInitiated
        self.thread = thread
        thread.start()
    }

    private func markFinished() {
        lock.lock()
        finished = true
        thread = nil  // breaks the thread → closure → self cycle
        let resumed = waiters
        waiters = []
        lock.unlock()
        for waiter in resumed { waiter.resume() }
    }

    /// Waits until the thread's body has returned.
    func join() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if finished {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }
}
