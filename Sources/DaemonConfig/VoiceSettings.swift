/// How spoken instructions sound: an espeak-ng voice and rate, and optionally a directory of
/// recorded clips played instead of synthesis.
public struct VoiceSettings: Sendable, Hashable {
    /// The espeak-ng voice (`espeak-ng --voices`), for example `en`, `en-us`, `en+f3`.
    public var name: String
    /// Words per minute, 80 to 450 (espeak-ng's default is 175).
    public var wordsPerMinute: Int
    /// A directory of recorded WAV clips named after the prompt text, or nil for synthesis only.
    public var clipDirectory: String?
    /// Whether the playback device is held open and running from a task's load (and a run's
    /// start) to the run's end (`voice.holdStream`, on by default, docs/configuration.md).
    public var holdStream: Bool

    public init(name: String = "en", wordsPerMinute: Int = 175, clipDirectory: String? = nil, holdStream: Bool = true) {
        self.holdStream = holdStream
        self.name = name
        self.wordsPerMinute = wordsPerMinute
        self.clipDirectory = clipDirectory
    }

    /// The speaking rates espeak-ng accepts.
    public static let wordsPerMinuteRange = 80...450
}
