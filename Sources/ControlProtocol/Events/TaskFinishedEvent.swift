/// `taskFinished`: the run ended; its results and archive are in `runDirectory`.
public struct TaskFinishedEvent: Sendable, Hashable, ControlSchemaDescribing {
    public var taskRunUUID: String
    public var reason: RunState
    public var runDirectory: String
    public var archive: String?
    /// The run's quality checks (qc.json, docs/quality.md), so a front end can tell the
    /// participant at once that the recording must be repeated; nil for saved runs.
    public var quality: QualitySummary?

    public init(taskRunUUID: String, reason: RunState, runDirectory: String, archive: String? = nil, quality: QualitySummary? = nil) {
        self.taskRunUUID = taskRunUUID
        self.reason = reason
        self.runDirectory = runDirectory
        self.archive = archive
        self.quality = quality
    }

    public static var schema: JSONSchema {
        .object([.init("taskRunUUID", .string(format: "uuid")), .init("reason", .reference(to: RunState.self)),
                 .init("runDirectory", .string()), .init("archive", .string()),
                 .init("quality", .reference(to: QualitySummary.self))],
                required: ["taskRunUUID", "reason", "runDirectory"])
    }
}

/// `eventsLost`: events before this one were dropped because they could not be delivered in time.
public struct EventsLostEvent: Sendable, Hashable, ControlSchemaDescribing {
    public var count: UInt64

    public init(count: UInt64) {
        self.count = count
    }

    public static var schema: JSONSchema {
        .object([.init("count", .integer(minimum: 1))], required: ["count"])
    }
}
