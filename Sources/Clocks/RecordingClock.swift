public import Foundation
public import Glibc
import SystemCalls

/// The clocks a recording is stamped with. Every recorder's `uptime` is CLOCK_BOOTTIME seconds
/// (monotonic, counts suspend), so motion, audio and prompts line up; ALSA stamps streams on
/// CLOCK_MONOTONIC and is converted here; dates come from CLOCK_REALTIME.
public enum RecordingClock {
    /// Seconds on CLOCK_BOOTTIME.
    public static func uptime() -> Double {
        seconds(of: CLOCK_BOOTTIME)
    }

    /// Seconds on CLOCK_MONOTONIC (stops during suspend): for intervals and ALSA timestamps.
    public static func monotonic() -> Double {
        seconds(of: CLOCK_MONOTONIC)
    }

    /// Seconds on CLOCK_REALTIME.
    public static func realtime() -> Double {
        seconds(of: CLOCK_REALTIME)
    }

    /// The wall-clock date at CLOCK_BOOTTIME `uptime`.
    public static func date(atUptime uptime: Double) -> Date {
        let offset = realtime() - self.uptime()
        return Date(timeIntervalSince1970: uptime + offset)
    }

    /// CLOCK_BOOTTIME − CLOCK_MONOTONIC now: the time spent suspended since boot. It only
    /// changes across a suspend, so sample it around each conversion.
    public static func boottimeOffset() -> Double {
        let before = monotonic()
        let boot = uptime()
        let after = monotonic()
        return boot - (before + after) / 2
    }

    /// The CLOCK_BOOTTIME seconds of a CLOCK_MONOTONIC timestamp (an ALSA stream timestamp).
    public static func uptime(ofMonotonic timestamp: Double) -> Double {
        timestamp + boottimeOffset()
    }

    /// Seconds on `clock`: the one place the process reads a clock.
    public static func seconds(of clock: clockid_t) -> Double {
        let time = Syscalls.clockTime(clock)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
}
