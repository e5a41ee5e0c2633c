/// One spoken instruction of a step: what to say and at which second of the step timer.
/// The schedule (start, halfway, countdown, …) is computed elsewhere (TaskNavigation).
public struct SpokenPrompt: Sendable, Hashable, Codable {
    /// Seconds after the step timer starts.
    public var time: Double
    public var text: String
    /// The key it came from (`start`, `halfway`, `countdown`, a number), used to look up a
    /// recorded clip; nil when unknown.
    public var key: String?

    public init(time: Double, text: String, key: String? = nil) {
        self.time = time
        self.text = text
        self.key = key
    }
}
