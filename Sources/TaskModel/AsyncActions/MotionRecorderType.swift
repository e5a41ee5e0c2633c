/// A CoreMotion sensor or device-motion type a motion recorder can record.
///
/// `accelerometer`, `gyro` and `magnetometer` are raw sensor data; the rest come from sensor
/// fusion (gravity, userAcceleration, attitude, rotationRate, magneticField).
public enum MotionRecorderType: String, Codable, Sendable, CaseIterable, Hashable {
    case accelerometer
    case gyro
    case magnetometer
    case gravity
    case userAcceleration
    case attitude
    case rotationRate
    case magneticField

    /// The raw sensor types, as opposed to the fused device-motion types.
    public static let rawSensorTypes: Set<MotionRecorderType> = [.accelerometer, .gyro, .magnetometer]

    /// The fused device-motion types.
    public static let deviceMotionTypes: Set<MotionRecorderType> = [
        .gravity, .userAcceleration, .attitude, .rotationRate, .magneticField,
    ]

    /// True for types that come from sensor fusion rather than straight from a sensor.
    public var isDeviceMotion: Bool { Self.deviceMotionTypes.contains(self) }
}
