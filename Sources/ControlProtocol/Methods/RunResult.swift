public import TaskModel
/// `run.result`: a run's task result (taskResult.json) and where its files are.
public struct RunResult: Sendable, Hashable, ControlSchemaDescribing, ControlResult {
    public var taskRunUUID: String
    public var state: RunState
    public var runDirectory: String
    public var archive: String?
    /// taskResult.json as written (docs/runs.md).
    public var taskResult: JSONValue
    /// The archive's upload; absent when uploads are not configured or the run is not finished.
    public var upload: RunUploadStatus?

    public init(taskRunUUID: String, state: RunState, runDirectory: String, archive: String? = nil,
                taskResult: JSONValue, upload: RunUploadStatus? = nil) {
        self.taskRunUUID = taskRunUUID
        self.state = state
        self.runDirectory = runDirectory
        self.archive = archive
        self.taskResult = taskResult
        self.upload = upload
    }

    public static var schema: JSONSchema {
        .object([
            .init("taskRunUUID", .string(format: "uuid")), .init("state", .reference(to: RunState.self)),
            .init("runDirectory", .string()), .init("archive", .string()),
            .init("taskResult", .described("taskResult.json as written.", .map(.any))),
            .init("upload", .reference(to: RunUploadStatus.self)),
        ], required: ["taskRunUUID", "state", "runDirectory", "taskResult"])
    }
}

/// `run.archive`: where a run's upload archive is.
public struct ArchiveLocation: Sendable, Hashable, ControlSchemaDescribing, ControlResult {
    public var taskRunUUID: String
    /// `<data-dir>/runs/<uuid>/<uuid>.zip`.
    public var archive: String

    public init(taskRunUUID: String, archive: String) {
        self.taskRunUUID = taskRunUUID
        self.archive = archive
    }

    public static var schema: JSONSchema {
        .object([.init("taskRunUUID", .string(format: "uuid")), .init("archive", .string())],
                required: ["taskRunUUID", "archive"])
    }
}
