/// `runs.list`: the runs kept in the data directory, newest first.
public struct RunList: Sendable, Hashable, ControlSchemaDescribing, ControlResult {
    public var runs: [RunListEntry]

    public init(runs: [RunListEntry]) {
        self.runs = runs
    }

    public static var schema: JSONSchema {
        .object([.init("runs", .array(.reference(to: RunListEntry.self)))], required: ["runs"])
    }
}

/// One run in the data directory.
public struct RunListEntry: Sendable, Hashable, ControlSchemaDescribing {
    public var taskRunUUID: String
    public var taskIdentifier: String
    public var state: RunState
    /// ISO 8601 with milliseconds and offset, as in taskResult.json.
    public var startDate: String?
    public var endDate: String?
    public var runDirectory: String
    public var archive: String?
    /// The archive's upload; absent when uploads are not configured or the run is not finished.
    public var upload: RunUploadStatus?

    public init(taskRunUUID: String, taskIdentifier: String, state: RunState, startDate: String? = nil,
                endDate: String? = nil, runDirectory: String, archive: String? = nil, upload: RunUploadStatus? = nil) {
        self.taskRunUUID = taskRunUUID
        self.taskIdentifier = taskIdentifier
        self.state = state
        self.startDate = startDate
        self.endDate = endDate
        self.runDirectory = runDirectory
        self.archive = archive
        self.upload = upload
    }

    public static var schema: JSONSchema {
        .object([
            .init("taskRunUUID", .string(format: "uuid")), .init("taskIdentifier", .string()),
            .init("state", .reference(to: RunState.self)),
            .init("startDate", .string()), .init("endDate", .string()),
            .init("runDirectory", .string()), .init("archive", .string()),
            .init("upload", .reference(to: RunUploadStatus.self)),
        ], required: ["taskRunUUID", "taskIdentifier", "state", "runDirectory"])
    }
}
