/// `promptSpoken`: a spoken instruction started to be heard.
public struct PromptSpokenEvent: Sendable, Hashable, ControlSchemaDescribing {
    public var stepPath: String
    public var text: String
    /// When the schedule wanted it (CLOCK_BOOTTIME seconds).
    public var scheduledUptime: Double?
    /// When it was heard.
    public var spokenUptime: Double

    public init(stepPath: String, text: String, scheduledUptime: Double? = nil, spokenUptime: Double) {
        self.stepPath = stepPath
        self.text = text
        self.scheduledUptime = scheduledUptime
        self.spokenUptime = spokenUptime
    }

    public static var schema: JSONSchema {
        .object([.init("stepPath", .string()), .init("text", .string()), .init("scheduledUptime", .number),
                 .init("spokenUptime", .number)], required: ["stepPath", "text", "spokenUptime"])
    }
}

/// `stepCommand`: a step's `playSound*` (played by the daemon) or `vibrate*` (the front end's) command.
public struct StepCommandEvent: Sendable, Hashable, ControlSchemaDescribing {
    public var stepPath: String
    public var command: String

    public init(stepPath: String, command: String) {
        self.stepPath = stepPath
        self.command = command
    }

    public static var schema: JSONSchema {
        .object([.init("stepPath", .string()), .init("command", .string())], required: ["stepPath", "command"])
    }
}
