/// From IIO's SI units to CoreMotion's units and signs, so data from an iPhone and from this
/// daemon can be pooled.
public enum CoreMotionUnits {
    /// Standard gravity in m/s² (CoreMotion's g).
    public static let standardGravity = 9.80665

    /// Microtesla per gauss.
    public static let microteslaPerGauss = 100.0

    /// The value in CoreMotion's units for a sensor's value in IIO's units: accelerometer m/s²
    /// → g with the sign flipped (IIO reads +9.8 m/s² up on a device lying face-up, CoreMotion
    /// reads z = −1 there), gyroscope rad/s unchanged, magnetometer gauss → µT.
    @inline(__always)
    public static func convert(_ value: Double, sensor: SensorKind) -> Double {
        switch sensor {
        case .accelerometer: -value / standardGravity
        case .gyroscope: value
        case .magnetometer: value * microteslaPerGauss
        }
    }

    /// The factor `convert` multiplies by (for precomputing per channel).
    public static func factor(for sensor: SensorKind) -> Double {
        switch sensor {
        case .accelerometer: -1 / standardGravity
        case .gyroscope: 1
        case .magnetometer: microteslaPerGauss
        }
    }
}
