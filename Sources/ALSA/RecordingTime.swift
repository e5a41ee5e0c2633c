import Glibc

/// Converts the CLOCK_MONOTONIC times ALSA stamps streams with to CLOCK_BOOTTIME seconds, the
/// clock every recorder's `uptime` uses, so that audio lines up with motion samples.
public enum RecordingTime {
    /// Seconds on CLOCK_MONOTONIC now.
    public static func monotonic() -> Double { seconds(CLOCK_MONOTONIC) }

    /// Seconds on CLOCK_BOOTTIME now.
    public static func boottime() -> Double { seconds(CLOCK_BOOTTIME) }

    /// CLOCK_BOOTTIME − CLOCK_MONOTONIC now: the time spent suspended since boot. Sample it
    /// around the conversion (it only changes across a suspend).
    public static func boottimeOffset() -> Double {
        let before = monotonic()
        let boot = boottime()
        let after = monotonic()
        return boot - (before + after) / 2
    }

    /// The CLOCK_BOOTTIME seconds of a CLOCK_MONOTONIC stream timestamp.
    public static func boottime(ofMonotonic timestamp: Double) -> Double {
        timestamp + boottimeOffset()
    }

    private static func seconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
}
