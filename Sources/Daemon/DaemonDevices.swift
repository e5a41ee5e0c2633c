/// The devices the daemon names in `daemon.info` and lists motion sensors from in
/// `devices.list`. The recorders get theirs from the controller registry, made from the same
/// configuration (docs/configuration.md).
public struct DaemonDevices: Sendable, Hashable {
    /// The libiio context of the motion sensors: `local:`, `ip:HOST`, or `sim:`.
    public var iioURI: String
    /// The ALSA PCM the microphone records from.
    public var captureDevice: String
    /// The ALSA PCM voice prompts play on.
    public var playbackDevice: String

    public init(iioURI: String = "local:", captureDevice: String = "default", playbackDevice: String = "default") {
        self.iioURI = iioURI
        self.captureDevice = captureDevice
        self.playbackDevice = playbackDevice
    }
}
