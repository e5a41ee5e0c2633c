/// `run.cancel`: stop the run, keeping it resumable (`save: true`) or discarding it.
public struct CancelParams: Sendable, Hashable, ControlParams, RunNamingParams {
    public var save: Bool
    /// The run the client means; refused with -32001 when another is current.
    public var taskRunUUID: String?

    public init(save: Bool, taskRunUUID: String? = nil) {
        self.save = save
        self.taskRunUUID = taskRunUUID
    }

    public static var schema: JSONSchema {
        .object([.init("save", .described("True keeps the run resumable; false discards it.", .boolean)), runMember],
                required: ["save"])
    }
}
