/// `taskFinished`: the run ended; its results and archive are in `runDirectory`.
public struct TaskFinishedEvent: Sendable, Hashable, ControlSchemaDescribing {
    public var taskRunUUID: String
    public var reason: RunState
    public var runDirectory: String
    public var archive: String?

    public init(taskRunUUID: String, reason: RunState, runDirectory: String, archive: String? = nil) {
        self.taskRunUUID = taskRunUUID
        self.reason = reason
        self.runDirectory = runDirectory
        self.archive = archive
    }

    public static var schema: JSONSchema {
        .object([.init("taskRunUUID", .string(format: "uuid")), .init("reason", .reference(to: RunState.self)),
                 .init("runDirectory", .string()), .init("archive", .string())],
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
