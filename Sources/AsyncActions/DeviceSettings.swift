/// The devices and limits a controller factory gets from the daemon's configuration.
public struct DeviceSettings: Sendable, Hashable {
    /// The libiio context of the motion sensors: `local:`, `ip:HOST`, or `sim:` for the
    /// simulated IMU.
    public var iioURI: String
    /// The ALSA PCM the microphone records from.
    public var captureDevice: String
    /// The ALSA PCM voice prompts play on.
    public var playbackDevice: String
    /// The espeak-ng voice of spoken prompts.
    public var voice: String
    /// How often recorder files are forced to disk (fsync); bounds what a power cut loses.
    public var syncInterval: Duration
    /// How long opening a device (the permission check) may take before the controller fails.
    public var openDeadline: Duration
    /// How long `stop()` and `cancel()` wait for a device before the controller fails.
    public var stopDeadline: Duration
    /// Seconds by which the IMU's gyroscope lags its accelerometer (docs/fusion.md, "Gyro
    /// delay"); 0 for the usual convention. The built-in registry (module Recorders) gives it
    /// to the motion recorder's fusion.
    public var gyroDelay: Double

    public init(
        iioURI: String = "local:", captureDevice: String = "default", playbackDevice: String = "default",
        voice: String = "en", syncInterval: Duration = .seconds(1), openDeadline: Duration = .seconds(10),
        stopDeadline: Duration = .seconds(5), gyroDelay: Double = 0
    ) {
        self.iioURI = iioURI
        self.captureDevice = captureDevice
        self.playbackDevice = playbackDevice
        self.voice = voice
        self.syncInterval = syncInterval
        self.openDeadline = openDeadline
        self.stopDeadline = stopDeadline
        self.gyroDelay = gyroDelay
    }
}

extension Duration {
    /// The duration in seconds, for messages and for clocks kept as `Double`.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
