/// One spoken instruction of a step, for a `SessionVoice`: what to say and at which second of
/// the step timer.
public struct StepPrompt: Sendable, Hashable {
    /// Seconds after the step timer starts.
    public var time: Double
    public var text: String
    /// The `spokenInstructions` key it came from (`start`, `end`, a number), which selects a
    /// recorded clip; nil when unknown.
    public var key: String?

    public init(time: Double, text: String, key: String? = nil) {
        self.time = time
        self.text = text
        self.key = key
    }
}
