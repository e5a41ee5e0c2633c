public import IIO

/// Converts the scans of one buffer refill into samples: each sensor's vector in CoreMotion
/// units and each scan's CLOCK_BOOTTIME uptime, from the timestamp channel or, without one,
/// derived from the sampling rate and the time the buffer was read.
public struct ScanBatchConverter: Sendable {
    /// One conversion per sensor on the device, in the order samples are emitted per scan.
    public var conversions: [SensorConversion]
    /// The timestamp channel's byte offset and type, when it is enabled.
    public var timestampOffset: Int?
    /// The timestamp channel's type, when it is enabled.
    public var timestampType: ScanType?
    /// How device timestamps become CLOCK_BOOTTIME seconds.
    public var clock: DeviceClockMapping
    /// The device's sampling frequency (Hz), for derived times.
    public var frequency: Double
    private var lastDerived: Double?

    /// A converter for one device's buffer layout.
    public init(conversions: [SensorConversion], timestamp: (offset: Int, type: ScanType)?, clock: DeviceClockMapping, frequency: Double) {
        self.conversions = conversions
        timestampOffset = timestamp?.offset
        timestampType = timestamp?.type
        self.clock = clock
        self.frequency = frequency
    }

    /// Appends the samples of `scans` scans starting at `start`, `step` bytes apart, to
    /// `samples` (which keeps its capacity: no allocation once reserved).
    @inline(__always)
    public mutating func convert(
        start: UnsafeRawPointer, scans: Int, step: Int, readTime: Double, into samples: inout [MotionSample]
    ) {
        let period = 1 / frequency
        // Without a timestamp channel the batch's last scan arrived about at read time; never
        // earlier than one period after the previous batch, so times stay monotonic.
        var derivedStart = readTime - Double(max(scans - 1, 0)) * period
        if let lastDerived { derivedStart = max(derivedStart, lastDerived + period) }
        for scanIndex in 0..<scans {
            let scan = start + scanIndex * step
            let uptime: Double
            if let timestampOffset, let timestampType {
                uptime = clock.uptime(nanoseconds: ScanDecoding.rawValue(at: scan + timestampOffset, type: timestampType))
            } else {
                uptime = derivedStart + Double(scanIndex) * period
                lastDerived = uptime
            }
            for conversion in conversions {
                let vector = conversion.convert(scan: scan)
                samples.append(MotionSample(sensor: conversion.sensor, uptime: uptime, x: vector.x, y: vector.y, z: vector.z))
            }
        }
    }
}
