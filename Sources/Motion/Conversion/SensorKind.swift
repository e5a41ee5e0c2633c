public import TaskModel

/// A raw motion sensor as IIO names its channels.
public enum SensorKind: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// `in_accel_{x,y,z}`: m/s² after scaling.
    case accelerometer
    /// `in_anglvel_{x,y,z}`: rad/s after scaling.
    case gyroscope
    /// `in_magn_{x,y,z}`: gauss after scaling.
    case magnetometer

    /// 0, 1, 2: for per-sensor arrays on the hot path (no hashing).
    @inline(__always)
    public var index: Int {
        switch self {
        case .accelerometer: 0
        case .gyroscope: 1
        case .magnetometer: 2
        }
    }

    /// The IIO channel type prefix (`accel`, `anglvel`, `magn`).
    public var channelPrefix: String {
        switch self {
        case .accelerometer: "accel"
        case .gyroscope: "anglvel"
        case .magnetometer: "magn"
        }
    }

    /// The recorder type its samples are written as.
    public var recorderType: MotionRecorderType {
        switch self {
        case .accelerometer: .accelerometer
        case .gyroscope: .gyro
        case .magnetometer: .magnetometer
        }
    }

    /// The sensor a raw recorder type needs; nil for fused device-motion types.
    public init?(recorderType: MotionRecorderType) {
        switch recorderType {
        case .accelerometer: self = .accelerometer
        case .gyro: self = .gyroscope
        case .magnetometer: self = .magnetometer
        default: return nil
        }
    }

    /// The sensor whose channel id this is (`accel_x` → accelerometer, axis 0).
    public static func parse(channelID: String) -> (sensor: SensorKind, axis: Int)? {
        let parts = channelID.split(separator: "_")
        guard parts.count == 2, parts[1].count == 1 else { return nil }
        let axis: Int
        switch parts[1] {
        case "x": axis = 0
        case "y": axis = 1
        case "z": axis = 2
        default: return nil
        }
        guard let sensor = allCases.first(where: { $0.channelPrefix == parts[0] }) else { return nil }
        return (sensor, axis)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.index < rhs.index }
}
