public import Foundation
import Glibc

/// The clocks a recording is stamped with: CLOCK_BOOTTIME seconds (`uptime`, shared by every
/// recorder and by IIO timestamps set to boottime) and the wall-clock date it corresponds to.
public enum RecordingClock {
    /// Seconds on CLOCK_BOOTTIME (monotonic, counts suspend).
    public static func uptime() -> Double {
        seconds(of: CLOCK_BOOTTIME)
    }

    /// Seconds on CLOCK_MONOTONIC (no suspend), for converting device timestamps.
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

    private static func seconds(of clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
}
