import Glibc

/// CLOCK_MONOTONIC in seconds, for test code that times things apart from the product's clocks.
public enum MonotonicTime {
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
