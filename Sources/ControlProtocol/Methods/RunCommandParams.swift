public import TaskModel

/// The params of a command on the run under way that takes nothing else (`run.back`,
/// `run.skip`, `run.abandon`, `timer.start`, `timer.pause`, `timer.resume`): absent, `{}`, `[]`,
/// or the run the command means (docs/protocol.md, "The run a command means").
public struct RunCommandParams: Sendable, Hashable, ControlParams, RunNamingParams {
    public var taskRunUUID: String?

    public init(taskRunUUID: String? = nil) {
        self.taskRunUUID = taskRunUUID
    }

    /// Left out: the command acts on whichever run is under way, as before the member existed.
    public static var whenAbsent: RunCommandParams? { RunCommandParams() }

    /// Absent, `{}` or `[]` (as these methods took before they took a member), or by name.
    public static func decode(_ params: JSONValue?, for method: String) throws(ControlError) -> RunCommandParams {
        switch params {
        case nil, .array([])?: return RunCommandParams()
        default: return try decodeByName(params, for: method)
        }
    }

    public func requestParams() throws -> JSONValue? {
        taskRunUUID == nil ? nil : try JSONValue.encoding(self)
    }

    public static var schema: JSONSchema {
        .object([runMember], required: [])
    }
}
