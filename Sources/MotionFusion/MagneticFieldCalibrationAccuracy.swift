/// How far to trust `DeviceMotion.magneticField`, with CoreMotion's
/// `CMMagneticFieldCalibrationAccuracy` raw values (SageResearch's `eventAccuracy`).
public enum MagneticFieldCalibrationAccuracy: Int, Sendable, Comparable, CaseIterable {
    /// No usable hard-iron estimate yet: the field is the raw reading.
    case uncalibrated = -1
    case low = 0
    case medium = 1
    case high = 2

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
