/// One converted raw sensor sample: CoreMotion units (accelerometer g, gyroscope rad/s,
/// magnetometer µT) stamped with CLOCK_BOOTTIME seconds.
public struct MotionSample: Sendable, Hashable {
    public var sensor: SensorKind
    /// CLOCK_BOOTTIME seconds when the sensor took the sample.
    public var uptime: Double
    public var x: Double
    public var y: Double
    public var z: Double

    public init(sensor: SensorKind, uptime: Double, x: Double, y: Double, z: Double) {
        self.sensor = sensor
        self.uptime = uptime
        self.x = x
        self.y = y
        self.z = z
    }
}
