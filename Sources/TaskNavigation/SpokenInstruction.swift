/// One voice prompt of a step: `text` spoken `time` seconds after the step timer starts.
public struct SpokenInstruction: Codable, Sendable, Hashable {
    public var time: Double
    public var text: String
    /// The key of the step's `spokenInstructions` table it came from (`start`, `halfway`,
    /// `end`, a number of seconds, or `countdown-N` for the countdown's N), which names a
    /// recorded clip that replaces synthesis.
    public var key: String? = nil

    /// The plan's JSON carries `{time, text}` only (the CLI contract in docs/); the key is for
    /// the voice in-process.
    private enum CodingKeys: String, CodingKey {
        case time, text
    }

    public init(time: Double, text: String, key: String? = nil) {
        self.time = time
        self.text = text
        self.key = key
    }
}
