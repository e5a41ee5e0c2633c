/// `permissionRequest`: the front end must ask the person; answer with `permission.answer`.
/// Unanswered, it is denied at `deadlineUptime` (2 minutes, as SageResearch does).
public struct PermissionRequestEvent: Sendable, Hashable, ControlSchemaDescribing {
    public var requestID: UInt64
    /// `microphone`, `motion`, `location`, …
    public var permission: String
    /// From the step's `permissions[]` entry.
    public var title: String?
    public var reason: String?
    /// The async actions waiting for the answer.
    public var actions: [String]
    public var deadlineUptime: Double

    public init(requestID: UInt64, permission: String, title: String? = nil, reason: String? = nil,
                actions: [String], deadlineUptime: Double) {
        self.requestID = requestID
        self.permission = permission
        self.title = title
        self.reason = reason
        self.actions = actions
        self.deadlineUptime = deadlineUptime
    }

    public static var schema: JSONSchema {
        .object([
            .init("requestID", .integer(minimum: 0)), .init("permission", .string()),
            .init("title", .string()), .init("reason", .string()),
            .init("actions", .array(.string())), .init("deadlineUptime", .number),
        ], required: ["requestID", "permission", "actions", "deadlineUptime"])
    }
}

/// `permissionAnswered`: by the front end, the policy or the time-out.
public struct PermissionAnsweredEvent: Sendable, Hashable, ControlSchemaDescribing {
    public var requestID: UInt64
    public var permission: String
    public var granted: Bool

    public init(requestID: UInt64, permission: String, granted: Bool) {
        self.requestID = requestID
        self.permission = permission
        self.granted = granted
    }

    public static var schema: JSONSchema {
        .object([.init("requestID", .integer(minimum: 0)), .init("permission", .string()),
                 .init("granted", .boolean)], required: ["requestID", "permission", "granted"])
    }
}
