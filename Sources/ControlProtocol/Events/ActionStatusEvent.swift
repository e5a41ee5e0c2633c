/// `actionStatus`: an async action's status moved forward (AsyncActionStatus names).
public struct ActionStatusEvent: Sendable, Hashable, ControlSchemaDescribing {
    public var identifier: String
    /// The path of the task or section that declares the action.
    public var owner: String
    public var status: String

    public init(identifier: String, owner: String, status: String) {
        self.identifier = identifier
        self.owner = owner
        self.status = status
    }

    public static var schema: JSONSchema {
        .object([
            .init("identifier", .string()), .init("owner", .string()),
            .init("status", .string(enumeration: [
                "idle", "requestingPermission", "permissionGranted", "starting", "running", "waitingToStop",
                "processingResults", "stopping", "finished", "cancelled", "failed",
            ])),
        ], required: ["identifier", "owner", "status"])
    }
}

/// `actionFailed`: a recorder failed; its `<identifier>_error` result is recorded and the task goes on.
public struct ActionFailedEvent: Sendable, Hashable, ControlSchemaDescribing {
    public var identifier: String
    public var owner: String
    public var message: String

    public init(identifier: String, owner: String, message: String) {
        self.identifier = identifier
        self.owner = owner
        self.message = message
    }

    public static var schema: JSONSchema {
        .object([.init("identifier", .string()), .init("owner", .string()), .init("message", .string())],
                required: ["identifier", "owner", "message"])
    }
}

/// `warning`: something worth telling that stops nothing (an overrun, a gap, a refused prompt).
public struct WarningEvent: Sendable, Hashable, ControlSchemaDescribing {
    public var message: String
    /// The async action concerned, if any.
    public var identifier: String?

    public init(message: String, identifier: String? = nil) {
        self.message = message
        self.identifier = identifier
    }

    public static var schema: JSONSchema {
        .object([.init("message", .string()), .init("identifier", .string())], required: ["message"])
    }
}
