/// The `sensorType` of a motion record (docs/motion.md).
public enum MotionSensorType: String, Sendable, Hashable, CaseIterable, Comparable {
    case accelerometer, gyro, magnetometer, gravity, userAcceleration, attitude, rotationRate, magneticField

    /// Recorded straight from a sensor (the checks of stuck and clipped values apply), as
    /// opposed to computed by sensor fusion.
    public var isRaw: Bool { self == .accelerometer || self == .gyro || self == .magnetometer }

    /// The unit of x, y, z in the file.
    public var unit: String {
        switch self {
        case .accelerometer, .gravity, .userAcceleration: "g"
        case .gyro, .rotationRate: "rad/s"
        case .magnetometer, .magneticField: "µT"
        case .attitude: ""
        }
    }

    /// Matches the bytes of a `sensorType` value without building a String.
    static func parse<C: Collection<UInt8>>(_ bytes: C) -> MotionSensorType? {
        for type in allCases where type.rawValue.utf8.elementsEqual(bytes) { return type }
        return nil
    }

    private var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    public static func < (lhs: MotionSensorType, rhs: MotionSensorType) -> Bool { lhs.order < rhs.order }
}
