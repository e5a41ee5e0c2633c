/// `promptFinished`: a spoken instruction's last sample was played. A front end that moves on
/// after a step's `end` prompt (as SageResearch does) waits for this, not for an estimate of the
/// prompt's length.
public struct PromptFinishedEvent: Sendable, Hashable, ControlSchemaDescribing {
    public var stepPath: String
    public var text: String
    /// When its last sample was heard (CLOCK_BOOTTIME seconds, the clock of `spokenUptime`).
    public var finishedUptime: Double

    public init(stepPath: String, text: String, finishedUptime: Double) {
        self.stepPath = stepPath
        self.text = text
        self.finishedUptime = finishedUptime
    }

    public static var schema: JSONSchema {
        .object([.init("stepPath", .string()), .init("text", .string()), .init("finishedUptime", .number)],
                required: ["stepPath", "text", "finishedUptime"])
    }
}
