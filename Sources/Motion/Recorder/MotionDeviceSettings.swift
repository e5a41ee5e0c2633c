public import SampleFiles

/// How the motion recorder reaches its sensors and keeps its file: the daemon's `iioURI`,
/// `syncInterval` and `motion.gyroDelay` (docs/configuration.md) and the recorder's deadlines.
public struct MotionDeviceSettings: Sendable, Hashable {
    /// The libiio context of the motion sensors: `local:`, `ip:HOST`, or `sim:` for the
    /// simulated IMU.
    public var iioURI: String
    /// How often the motion file reaches the disk (fsync); bounds what a power cut loses.
    public var syncPolicy: SyncPolicy
    /// How long opening the sensors (the permission check) and starting them may take before
    /// the recorder fails.
    public var openDeadline: Duration
    /// How long `stop()` and `cancel()` wait for the sensors and the file before the recorder
    /// fails.
    public var stopDeadline: Duration
    /// Seconds by which the IMU's gyroscope lags its accelerometer (docs/fusion.md, "Gyro
    /// delay"); 0 for the usual convention. The built-in registry (module Recorders) gives it
    /// to the motion recorder's fusion.
    public var gyroDelay: Double

    public init(
        iioURI: String = "local:", syncPolicy: SyncPolicy = .default, openDeadline: Duration = .seconds(10),
        stopDeadline: Duration = .seconds(5), gyroDelay: Double = 0
    ) {
        self.iioURI = iioURI
        self.syncPolicy = syncPolicy
        self.openDeadline = openDeadline
        self.stopDeadline = stopDeadline
        self.gyroDelay = gyroDelay
    }
}
