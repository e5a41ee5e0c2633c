public import ALSA
public import SampleFiles

/// How the microphone recorder opens and reads its capture PCM.
public struct MicrophoneSettings: Sendable, Hashable {
    /// The ALSA PCM to record from (`default`, `hw:1,0`, `plughw:…`, `pulse`, an asoundrc PCM).
    public var device: String
    /// Rate, channels, format and period/buffer sizes asked of the device.
    public var hardware: HardwareParameters
    /// Stop by itself after this many seconds of audio (frames, not wall time); nil = until
    /// `stop()`. Used by `activetaskctl record-audio`.
    public var maximumDuration: Double?
    /// Seconds of audio per levels record.
    public var levelInterval: Double
    /// How often WAV and levels data reach the disk.
    public var syncPolicy: SyncPolicy
    /// How long opening and configuring the PCM may take before the recorder fails.
    public var openDeadline: Duration
    /// How long `stop()` and `cancel()` wait for the capture thread before the recorder fails.
    public var stopDeadline: Duration
    /// Whether the device must keep time: one delivering frames more than 10 % faster or slower
    /// than its rate fails the recording (docs/audio.md, "Devices that do not keep time").
    /// False only for a device that replays a file as fast as it is read, on purpose
    /// (`activetaskctl record-audio --unpaced`, tests).
    public var requiresPacing: Bool
    /// The SCHED_FIFO priority the capture thread asks for as it starts (0: none); it gets it
    /// only where the process may, and records at normal priority otherwise (docs/audio.md,
    /// "Threads and allocation").
    public var realTimePriority: Int

    /// The capture thread's priority for a playback thread at `playback`: one less, since a late
    /// read is absorbed by the device's buffer while a late prompt is heard; 0 stays 0.
    public static func capturePriority(belowPlayback playback: Int) -> Int {
        playback <= 1 ? max(playback, 0) : playback - 1
    }

    /// 16 kHz mono S16_LE with 20 ms periods in a 160 ms buffer from `device`.
    public init(
        device: String = "default",
        hardware: HardwareParameters = HardwareParameters(rate: 16_000, channels: 1, format: .s16LE, periodFrames: 320, bufferFrames: 2_560),
        maximumDuration: Double? = nil,
        levelInterval: Double = 1,
        syncPolicy: SyncPolicy = .default,
        openDeadline: Duration = .seconds(10),
        stopDeadline: Duration = .seconds(5),
        requiresPacing: Bool = true,
        realTimePriority: Int = 9
    ) {
        self.realTimePriority = realTimePriority
        self.requiresPacing = requiresPacing
        self.openDeadline = openDeadline
        self.stopDeadline = stopDeadline
        self.device = device
        self.hardware = hardware
        self.maximumDuration = maximumDuration
        self.levelInterval = levelInterval
        self.syncPolicy = syncPolicy
    }
}
