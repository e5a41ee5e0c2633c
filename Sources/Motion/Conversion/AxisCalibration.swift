public import IIO

/// Where one axis of a sensor sits in a scan and how its raw value becomes SI units:
/// `(raw + offset) × scale` with the channel's sysfs `offset` and `scale`.
public struct AxisCalibration: Sendable, Hashable {
    /// Byte offset of the axis's value within a scan.
    public var scanOffset: Int
    /// How the value is stored.
    public var type: ScanType
    /// The channel's sysfs `scale` (1 when absent).
    public var scale: Double
    /// The channel's sysfs `offset`, added before scaling (0 when absent).
    public var offset: Double

    /// An axis at `scanOffset` bytes into each scan.
    public init(scanOffset: Int, type: ScanType, scale: Double, offset: Double = 0) {
        self.scanOffset = scanOffset
        self.type = type
        self.scale = scale
        self.offset = offset
    }

    /// `(raw + offset) × scale`.
    @inline(__always)
    public func value(raw: Int64) -> Double {
        (Double(raw) + offset) * scale
    }

    /// The axis's SI value in the scan starting at `scan`.
    @inline(__always)
    public func value(inScan scan: UnsafeRawPointer) -> Double {
        value(raw: ScanDecoding.rawValue(at: scan + scanOffset, type: type))
    }
}
