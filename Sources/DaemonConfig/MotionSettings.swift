/// How the motion recorder fuses this device's sensors: per-device properties of its IMU.
public struct MotionSettings: Sendable, Hashable {
    /// Seconds by which the gyroscope lags the accelerometer (docs/fusion.md, "Gyro delay");
    /// 0 for an IMU on the usual convention. Passed to the fusion as
    /// `DeviceMotionEstimator.Settings.gyroDelay`.
    public var gyroDelay: Double

    /// The gyro delays the configuration accepts: the range the fusion compensates
    /// (`DeviceMotionEstimator.Settings.gyroDelayRange`; DaemonConfigurationTests keeps the two
    /// equal), stated here so that reading the configuration needs no fusion code.
    public static let gyroDelayRange: ClosedRange<Double> = 0...0.05

    public init(gyroDelay: Double = 0) {
        self.gyroDelay = gyroDelay
    }
}
