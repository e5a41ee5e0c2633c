import Glibc
import Synchronization

/// What one dedicated thread is doing, for a watchdog: idle (waiting for work) or inside a
/// blocking call since a CLOCK_MONOTONIC time. Loops call `beat()` each time they enter a new
/// call (a refill, a period read), so "inside a call for longer than X" means "stuck".
public final class ThreadHeartbeat: Sendable {
    /// The thread's name (`iio-iio:device0`, `microphone-capture`, `blocking: open ip:…`).
    public let name: String
    private let busySince: Mutex<Double?>

    init(name: String) {
        self.name = name
        busySince = Mutex(nil)
    }

    /// The thread enters a blocking call now.
    public func beat() {
        let now = ThreadHeartbeats.now()
        busySince.withLock { $0 = now }
    }

    /// The thread waits for work and is not stuck whatever the time.
    public func idle() {
        busySince.withLock { $0 = nil }
    }

    /// Seconds since the thread entered its current call; nil when idle.
    public func secondsInCall(now: Double = ThreadHeartbeats.now()) -> Double? {
        busySince.withLock { since in since.map { now - $0 } }
    }
}
