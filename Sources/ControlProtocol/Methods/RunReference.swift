/// Names a run kept in the data directory (`run.resume`, `run.result`, `run.archive`).
public struct RunReference: Sendable, Hashable, ControlParams {
    public var taskRunUUID: String

    public init(taskRunUUID: String) {
        self.taskRunUUID = taskRunUUID
    }

    public static var schema: JSONSchema {
        .object([.init("taskRunUUID", .string(format: "uuid"))], required: ["taskRunUUID"])
    }
}
