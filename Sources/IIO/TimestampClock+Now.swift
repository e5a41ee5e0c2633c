import Clocks
import Glibc

extension TimestampClock {
    /// The Linux clock this names.
    var clockID: clockid_t {
        switch self {
        case .realtime: CLOCK_REALTIME
        case .monotonic: CLOCK_MONOTONIC
        case .monotonicRaw: CLOCK_MONOTONIC_RAW
        case .realtimeCoarse: CLOCK_REALTIME_COARSE
        case .monotonicCoarse: CLOCK_MONOTONIC_COARSE
        case .boottime: CLOCK_BOOTTIME
        case .tai: CLOCK_TAI
        }
    }

    /// The clock's current reading in seconds.
    public func now() -> Double {
        RecordingClock.seconds(of: clockID)
    }
}
