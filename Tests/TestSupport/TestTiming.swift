public import Foundation

/// The one place timing assertions take their slack from.
///
/// A timing test states the bound the product promises (a prompt heard within 50 ms, a call
/// failing at its deadline) plus a margin for a loaded machine's scheduling. Under a sanitizer
/// every instrumented instruction costs several times more, so `scripts/sanitize.sh` sets
/// `ACTIVETASK_TEST_TIME_SCALE` (5 under ThreadSanitizer, 3 under AddressSanitizer) and the
/// margins below grow by that factor; lower bounds (never before the deadline) and the ordering
/// of events are never scaled. In a normal run the factor is 1 and every bound is the stated one.
/// docs/testing.md lists the assertions that use it.
public enum TestTiming {
    /// `ACTIVETASK_TEST_TIME_SCALE` when it is a number ≥ 1, else 1.
    public static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment["ACTIVETASK_TEST_TIME_SCALE"],
              let value = Double(text), value >= 1 else { return 1 }
        return value
    }()

    /// `bound` widened by `scale`: an upper bound on how late or how far off real time may be.
    public static func tolerance(_ bound: Duration) -> Duration {
        bound * scale
    }

    /// `bound` (seconds, or a fraction of a recording) widened by `scale`.
    public static func tolerance(_ bound: Double) -> Double {
        bound * scale
    }
}
