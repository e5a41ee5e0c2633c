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
    /// The run still running: the results of its open sections, outermost first, each with
    /// its own `stepHistory` so far and no end date, as SageResearch's section path components
    /// hold them (not yet in `taskResult`, which gets them as they are left forward;
    /// docs/runs.md). Absent once the run is not running.
    public var openSections: [JSONValue]?

    public init(taskRunUUID: String, state: RunState, runDirectory: String, archive: String? = nil,
                taskResult: JSONValue, upload: RunUploadStatus? = nil, openSections: [JSONValue]? = nil) {
        self.taskRunUUID = taskRunUUID
        self.state = state
        self.runDirectory = runDirectory
        self.archive = archive
        self.taskResult = taskResult
        self.upload = upload
        self.openSections = openSections
    }

    public static var schema: JSONSchema {
        .object([
            .init("taskRunUUID", .string(format: "uuid")), .init("state", .reference(to: RunState.self)),
            .init("runDirectory", .string()), .init("archive", .string()),
            .init("taskResult", .described("taskResult.json as written.", .map(.any))),
            .init("upload", .reference(to: RunUploadStatus.self)),
            .init("openSections", .described("The running run's open sections' results, outermost first (docs/runs.md).", .array(.map(.any)))),
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
