/// The structured `data` of a control error; every member is optional.
public struct ControlErrorData: Sendable, Hashable, ControlSchemaDescribing {
    /// Where in the params or the task the problem is, e.g. `steps[3].duration`.
    public var codingPath: String?
    /// The run concerned (the running run for `runAlreadyRunning`).
    public var taskRunUUID: String?
    /// The session state the command met (`SessionState`'s names).
    public var state: String?
    /// The commands that the state would accept.
    public var allowed: [String]?
    /// The method the error answers.
    public var method: String?
    /// How long the rejected line was, for an over-long line.
    public var length: Int?

    public init(codingPath: String? = nil, taskRunUUID: String? = nil, state: String? = nil,
                allowed: [String]? = nil, method: String? = nil, length: Int? = nil) {
        self.codingPath = codingPath
        self.taskRunUUID = taskRunUUID
        self.state = state
        self.allowed = allowed
        self.method = method
        self.length = length
    }

    public static var schema: JSONSchema {
        .object([
            .init("codingPath", .string()), .init("taskRunUUID", .string()), .init("state", .string()),
            .init("allowed", .array(.string())), .init("method", .string()), .init("length", .integer(minimum: 0)),
        ], required: [])
    }
}
