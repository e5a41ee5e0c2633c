/// Lets an actor's callers wait until a count it keeps reaches a value: the session's voice
/// notices (a prompt played out) and the daemon's view of a session's events (a command's
/// answer once the step it showed is in the view) both wait this way (docs/session.md).
///
/// A plain struct kept by the actor; the actor awaits
/// `withCheckedContinuation { gate.enqueue(target, $0) }` only when `mustWait(for:)` says so,
/// and calls `advance(to:)` as the count moves. `end()` releases every waiter for good (nothing
/// more will come: they go on with what there is); `restart()` counts again from zero.
public struct SequenceGate {
    /// The highest value reached.
    public private(set) var reached: UInt64 = 0
    /// True once no more values will come.
    public private(set) var isEnded = false
    private var waiters: [(target: UInt64, continuation: CheckedContinuation<Void, Never>)] = []

    public init() {}

    /// How many callers wait.
    public var waiterCount: Int { waiters.count }

    /// Whether a caller waiting for `target` has to wait.
    public func mustWait(for target: UInt64) -> Bool {
        !isEnded && reached < target
    }

    /// Resumes `continuation` once `target` is reached or the gate ends (at once if it is).
    public mutating func enqueue(_ target: UInt64, _ continuation: CheckedContinuation<Void, Never>) {
        if mustWait(for: target) {
            waiters.append((target, continuation))
        } else {
            continuation.resume()
        }
    }

    /// The count reached `value` (a lower one than before changes nothing).
    public mutating func advance(to value: UInt64) {
        reached = max(reached, value)
        let reached = self.reached
        release { $0 <= reached }
    }

    /// No more values come: every waiter goes on.
    public mutating func end() {
        isEnded = true
        release { _ in true }
    }

    /// Counts again from zero (a new source); whoever waited for the old one goes on.
    public mutating func restart() {
        release { _ in true }
        reached = 0
        isEnded = false
    }

    private mutating func release(where isReady: (UInt64) -> Bool) {
        let ready = waiters.filter { isReady($0.target) }
        waiters.removeAll { isReady($0.target) }
        for waiter in ready { waiter.continuation.resume() }
    }
}
