/// `taskResultReady`: the run's task result is final and written (`taskResult.json` in
/// `runDirectory`, and `run.result`), as SageResearch's `handleTaskResultReady` tells: when the
/// task's last completion step shows, else as the run ends (completed, early exit, abandoned).
public struct TaskResultReadyEvent: Sendable, Hashable, ControlSchemaDescribing {
    public var taskRunUUID: String
    public var runDirectory: String
    /// The completion step on screen, when the result became ready as it showed.
    public var stepPath: String?

    public init(taskRunUUID: String, runDirectory: String, stepPath: String? = nil) {
        self.taskRunUUID = taskRunUUID
        self.runDirectory = runDirectory
        self.stepPath = stepPath
    }

    public static var schema: JSONSchema {
        .object([.init("taskRunUUID", .string(format: "uuid")), .init("runDirectory", .string()),
                 .init("stepPath", .string())],
                required: ["taskRunUUID", "runDirectory"])
    }
}
