/// How prompts sound: the espeak-ng voice, recorded clips that replace synthesis, the sounds of
/// `playSound*` commands and the warning spoken on pause.
public struct VoiceConfiguration: Sendable, Hashable, Codable {
    /// The ALSA PCM prompts play through.
    public var playbackDevice: String
    /// espeak-ng voice name.
    public var voice: String
    /// Speaking rate in words per minute.
    public var wordsPerMinute: Int
    /// WAV files that replace synthesis, keyed by prompt text or prompt key.
    public var clips: [String: String]
    /// WAV file for `playSoundOnStart`/`playSound`; nil = the built-in beep.
    public var startSound: String?
    /// WAV file for `playSoundOnFinish`; nil = the built-in beep.
    public var finishSound: String?
    /// What `speakWarningOnPause` says.
    public var pauseWarning: String
    /// Seconds before a prompt is due at which the closed playback device is opened; raise it
    /// for a device slow to start (a suspended sound card, a Bluetooth sink).
    public var streamOpenLead: Double
    /// The playback device stays open (stopped, writing nothing) while the next prompt is due
    /// within this many seconds, and is closed otherwise: an open stream keeps the sound server
    /// mixing (docs/audio.md, "Voice prompts").
    public var streamKeepOpenWindow: Double
    /// Whether the playback device is held open and running on silence while the prompter is
    /// asked to (`VoicePrompter.holdStream(_:)`; the daemon asks from a task's load to its run's
    /// end): the device's delay is then settled and measured before the first prompt, for a
    /// wake-up every 25 ms and the sound server mixing meanwhile (docs/audio.md, "Voice prompts").
    /// On by default: a device whose delay grows as it starts cannot be measured otherwise.
    public var holdStreamDuringRuns: Bool
    /// Bytes of synthesised and loaded clips kept ready (least recently used dropped first);
    /// the default holds about 3 minutes of speech at 22050 Hz.
    public var clipCacheBytes: Int
    /// The SCHED_FIFO priority the playback thread asks for as it starts (0: none); it gets it
    /// only where the process may, and plays at normal priority otherwise (docs/audio.md,
    /// "Voice prompts", Timing).
    public var realTimePriority: Int = 10

    public init(
        playbackDevice: String = "default", voice: String = "en", wordsPerMinute: Int = 175,
        clips: [String: String] = [:], startSound: String? = nil, finishSound: String? = nil,
        pauseWarning: String = "The activity is paused. Resume when you are ready.",
        streamOpenLead: Double = 0.5, streamKeepOpenWindow: Double = 1.5, holdStreamDuringRuns: Bool = true,
        clipCacheBytes: Int = 8 << 20
    ) {
        self.holdStreamDuringRuns = holdStreamDuringRuns
        self.streamOpenLead = streamOpenLead
        self.streamKeepOpenWindow = streamKeepOpenWindow
        self.clipCacheBytes = clipCacheBytes
        self.playbackDevice = playbackDevice
        self.voice = voice
        self.wordsPerMinute = wordsPerMinute
        self.clips = clips
        self.startSound = startSound
        self.finishSound = finishSound
        self.pauseWarning = pauseWarning
    }
}
