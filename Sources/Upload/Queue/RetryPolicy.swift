/// When a failed upload is tried again: exponential backoff from `baseSeconds`, capped at
/// `capSeconds`, with jitter so that fifty devices coming back online do not retry in step;
/// `SlowDown` backs off four times harder; a server's `Retry-After` is never undercut. A held
/// failure waits `heldSeconds` (or a reload).
public struct RetryPolicy: Sendable, Hashable {
    public var baseSeconds: Double = 2
    public var capSeconds: Double = 600
    public var heldSeconds: Double = 6 * 3600
    /// A `Retry-After` above this is not believed (a misconfigured proxy must not park the queue for days).
    public var maximumRetryAfterSeconds: Double = 3600

    public init() {}

    /// The delay before attempt `failures + 1`; `jitter` in [0, 1) picks a point in the upper
    /// half of the backoff window ("equal jitter").
    public func delay(afterFailures failures: Int, failure: UploadFailure, jitter: Double) -> Double {
        if failure.kind == .held { return heldSeconds }
        let exponent = Double(max(0, min(failures - 1, 30)))
        var window = baseSeconds * pow2(exponent)
        if failure.kind == .slowDown { window *= 4 }
        window = min(window, capSeconds)
        let jittered = window * (0.5 + 0.5 * min(max(jitter, 0), 1))
        let retryAfter = min(failure.retryAfterSeconds ?? 0, maximumRetryAfterSeconds)
        return max(jittered, retryAfter)
    }

    private func pow2(_ exponent: Double) -> Double {
        var value = 1.0
        for _ in 0..<Int(exponent) { value *= 2 }
        return value
    }
}
