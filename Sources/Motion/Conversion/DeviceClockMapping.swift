public import IIO

/// Maps a device's timestamp channel (nanoseconds on its `current_timestamp_clock`) to seconds
/// on CLOCK_BOOTTIME, the clock every recorder's `uptime` uses.
public struct DeviceClockMapping: Sendable, Hashable {
    /// Seconds to add to the device clock's reading to get CLOCK_BOOTTIME.
    public var offset: Double
    /// The device's timestamp clock.
    public var clock: TimestampClock

    /// A mapping adding `offset` seconds to readings of `clock`.
    public init(clock: TimestampClock, offset: Double) {
        self.clock = clock
        self.offset = offset
    }

    /// Boottime itself: no offset.
    public static let boottime = DeviceClockMapping(clock: .boottime, offset: 0)

    /// Measures the offset between `clock` and CLOCK_BOOTTIME now (zero for boottime). The
    /// offset of realtime changes when the wall clock is set; a recording spans minutes, so one
    /// measurement at start is kept.
    public static func measure(clock: TimestampClock) -> DeviceClockMapping {
        if clock == .boottime { return .boottime }
        // Read boottime on both sides of the device clock and take the midpoint.
        let before = TimestampClock.boottime.now()
        let device = clock.now()
        let after = TimestampClock.boottime.now()
        return DeviceClockMapping(clock: clock, offset: (before + after) / 2 - device)
    }

    /// CLOCK_BOOTTIME seconds of a device timestamp in nanoseconds.
    @inline(__always)
    public func uptime(nanoseconds: Int64) -> Double {
        if offset == 0 { return Double(nanoseconds) / 1_000_000_000 }
        return Double(nanoseconds) / 1_000_000_000 + offset
    }
}
