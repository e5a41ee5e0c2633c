/// `permission.answer`: the person's answer to a `permissionRequest` event.
public struct PermissionAnswerParams: Sendable, Hashable, ControlParams, RunNamingParams {
    /// The `requestID` of the `permissionRequest` event.
    public var requestID: UInt64
    public var granted: Bool
    /// The run the front end means; refused with -32001 when another is current.
    public var taskRunUUID: String?

    public init(requestID: UInt64, granted: Bool, taskRunUUID: String? = nil) {
        self.requestID = requestID
        self.granted = granted
        self.taskRunUUID = taskRunUUID
    }

    public static var schema: JSONSchema {
        .object([.init("requestID", .integer(minimum: 0)), .init("granted", .boolean), runMember],
                required: ["requestID", "granted"])
    }
}
