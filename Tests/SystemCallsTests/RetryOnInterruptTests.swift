import Foundation
import Glibc
import Synchronization
import SystemCalls
import Testing

/// Signals the test's handler has seen.
private let signalsHandled = Atomic<Int>(0)

/// EINTR is handled in one place: `Syscalls.retryingOnInterrupt` makes an interrupted call
/// again, and only an interrupted one.
@Suite("System calls: EINTR retried in one place")
struct RetryOnInterruptTests {
    /// What successive calls return: a number ≥ 0 is the call's result, a negative one fails
    /// the call with that errno.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var returns: [Int32]
        var result: Int32
        var errno: Int32?
        var calls: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "succeeds at once", returns: [0], result: 0, errno: nil, calls: 1),
        Case(name: "a count is passed through", returns: [5], result: 5, errno: nil, calls: 1),
        Case(name: "interrupted once, then succeeds", returns: [-EINTR, 0], result: 0, errno: nil, calls: 2),
        Case(name: "interrupted twice, then succeeds", returns: [-EINTR, -EINTR, 7], result: 7, errno: nil, calls: 3),
        Case(name: "another failure is not retried", returns: [-EBADF, 0], result: -1, errno: EBADF, calls: 1),
        Case(name: "interrupted, then another failure", returns: [-EINTR, -EIO, 0], result: -1, errno: EIO, calls: 2),
    ]

    @Test(arguments: cases)
    func retries(_ testCase: Case) {
        var calls = 0
        let result = Syscalls.retryingOnInterrupt { () -> Int32 in
            let value = testCase.returns[calls]
            calls += 1
            if value < 0 {
                Glibc.errno = -value
                return -1
            }
            return value
        }
        #expect(result == testCase.result)
        #expect(calls == testCase.calls)
        if let errno = testCase.errno { #expect(Glibc.errno == errno) }
    }

    @Test("A sleep a real signal interrupts (EINTR) still sleeps the whole time")
    func signalDuringSleep() throws {
        // A handler without SA_RESTART: nanosleep returns EINTR when it runs.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in signalsHandled.add(1, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previous = sigaction()
        try #require(sigaction(SIGUSR1, &action, &previous) == 0)
        defer { sigaction(SIGUSR1, &previous, nil) }

        let before = signalsHandled.load(ordering: .relaxed)
        let sleeper = Sleeper()
        let thread = Thread {
            // Threads of the test's pool block signals, and a new thread inherits that mask.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            sleeper.thread.withLock { $0 = pthread_self() }
            let start = Syscalls.clockTime(CLOCK_MONOTONIC)
            Syscalls.sleep(seconds: 0.5)
            let end = Syscalls.clockTime(CLOCK_MONOTONIC)
            sleeper.slept.withLock { $0 = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9 }
        }
        thread.start()
        while sleeper.thread.withLock({ $0 }) == nil { usleep(1_000) }
        usleep(150_000)
        let target = try #require(sleeper.thread.withLock { $0 })
        try #require(pthread_kill(target, SIGUSR1) == 0)
        while sleeper.slept.withLock({ $0 }) == nil { usleep(10_000) }
        // A sanitizer may run the handler a little later than the kernel delivered the signal.
        for _ in 0..<200 where signalsHandled.load(ordering: .relaxed) == before { usleep(10_000) }
        #expect(signalsHandled.load(ordering: .relaxed) == before + 1)
        #expect(try #require(sleeper.slept.withLock { $0 }) >= 0.5)
    }

    /// The sleeping thread, and how long it slept.
    final class Sleeper: Sendable {
        let thread = Mutex<pthread_t?>(nil)
        let slept = Mutex<Double?>(nil)
    }
}
