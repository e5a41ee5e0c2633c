/// The step timer of an active or countdown step as plain bookkeeping: started, paused,
/// resumed and finished against times the caller passes in (CLOCK_MONOTONIC seconds), so the
/// session's clock loop carries it out and tests drive it without waiting.
public struct StepTimer: Sendable, Hashable {
    public enum Phase: Sendable, Hashable {
        case notStarted
        /// `zero` is the monotonic time of timer second 0 (shifted by pauses).
        case running(zero: Double)
        case paused(elapsed: Double)
        case finished
    }

    /// The timer's length in seconds.
    public let duration: Double
    public private(set) var phase: Phase = .notStarted

    public init(duration: Double) {
        self.duration = duration
    }

    /// Seconds elapsed on the timer at `now`.
    public func elapsed(at now: Double) -> Double {
        switch phase {
        case .notStarted: 0
        case .running(let zero): min(max(now - zero, 0), duration)
        case .paused(let elapsed): elapsed
        case .finished: duration
        }
    }

    /// Seconds left at `now`.
    public func remaining(at now: Double) -> Double { duration - elapsed(at: now) }

    public var isRunning: Bool {
        if case .running = phase { return true }
        return false
    }

    public var isPaused: Bool {
        if case .paused = phase { return true }
        return false
    }

    /// Starts the timer; false when it already started.
    public mutating func start(at now: Double) -> Bool {
        guard case .notStarted = phase else { return false }
        phase = .running(zero: now)
        return true
    }

    /// Pauses a running timer and returns the seconds elapsed; nil when it is not running.
    public mutating func pause(at now: Double) -> Double? {
        guard case .running = phase else { return nil }
        let elapsed = elapsed(at: now)
        phase = .paused(elapsed: elapsed)
        return elapsed
    }

    /// Resumes a paused timer where it stopped; false when it is not paused.
    public mutating func resume(at now: Double) -> Bool {
        guard case .paused(let elapsed) = phase else { return false }
        phase = .running(zero: now - elapsed)
        return true
    }

    /// Marks a running timer finished when its end has come; true when it finished now.
    public mutating func finishIfDue(at now: Double) -> Bool {
        guard case .running(let zero) = phase, now - zero >= duration else { return false }
        phase = .finished
        return true
    }

    /// The monotonic time of the next whole-second tick or of the end, whichever comes first;
    /// nil when the timer is not running.
    public func nextDeadline(after now: Double) -> Double? {
        guard case .running(let zero) = phase else { return nil }
        let elapsed = max(now - zero, 0)
        let nextSecond = (elapsed + 1e-9).rounded(.down) + 1
        return zero + min(nextSecond, duration)
    }
}
