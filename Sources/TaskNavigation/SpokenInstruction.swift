/// One voice prompt of a step: `text` spoken `time` seconds after the step timer starts.
public struct SpokenInstruction: Codable, Sendable, Hashable {
    public var time: Double
    public var text: String

    public init(time: Double, text: String) {
        self.time = time
        self.text = text
    }
}
