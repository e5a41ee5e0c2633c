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
    /// Keep the playback stream running on silence for the prompter's whole life, so a
    /// device's start-up latency (about 0.7 s through PulseAudio) never delays a prompt. When
    /// false the stream runs only from a step's `prepare` to its end, and `say` starts cold.
    public var keepsStreamWarm: Bool

    public init(
        playbackDevice: String = "default", voice: String = "en", wordsPerMinute: Int = 175,
        clips: [String: String] = [:], startSound: String? = nil, finishSound: String? = nil,
        pauseWarning: String = "The activity is paused. Resume when you are ready.",
        keepsStreamWarm: Bool = true
    ) {
        self.keepsStreamWarm = keepsStreamWarm
        self.playbackDevice = playbackDevice
        self.voice = voice
        self.wordsPerMinute = wordsPerMinute
        self.clips = clips
        self.startSound = startSound
        self.finishSound = finishSound
        self.pauseWarning = pauseWarning
    }
}
