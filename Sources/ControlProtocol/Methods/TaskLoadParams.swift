public import TaskModel
/// `task.load`: a task file on the daemon's machine, or the task's JSON inline.
///
/// Exactly one of `path` and `task` is given. An inline task's transform steps find their
/// `resourceTransformer` files in `resources` (file name without extension → JSON), since the
/// daemon cannot read the front end's files.
public struct TaskLoadParams: Sendable, Hashable, ControlParams {
    /// A task file relative to the daemon's task directory; absolute, or leading out of it,
    /// only from the daemon's administrators (docs/protocol.md, "task.load").
    public var path: String?
    /// The task JSON as written.
    public var task: JSONValue?
    /// Transform resources for an inline task: name → JSON.
    public var resources: [String: JSONValue]?

    public init(path: String? = nil, task: JSONValue? = nil, resources: [String: JSONValue]? = nil) {
        self.path = path
        self.task = task
        self.resources = resources
    }

    /// Exactly one of `path` and `task`.
    public func validate(for method: String) throws(ControlError) {
        guard (path == nil) != (task == nil) else {
            throw ControlError(.invalidParams, "\(method) takes either `path` or `task`, not both and not neither.",
                               data: ControlErrorData(codingPath: path == nil ? "path" : "task", method: method))
        }
    }

    public static var schema: JSONSchema {
        .object([
            .init("path", .described("A task file relative to the daemon's task directory, without \"..\"; an absolute path or one leading out of the directory (a symlink) only from the daemon's administrators (root, its own user, activetask).", .string())),
            .init("task", .described("The task JSON as written (SageResearch format).", .map(.any))),
            .init("resources", .described("Transform resources for an inline task: name → JSON; at most 256, with the task at most 4 MiB.", .map(.any))),
        ], required: [])
    }
}

/// The result of `task.load`: what was loaded.
public struct LoadedTask: Sendable, Hashable, ControlSchemaDescribing, ControlResult {
    public var taskIdentifier: String
    public var schemaIdentifier: String?
    public var versionString: String?
    /// Steps at the top level of the task.
    public var stepCount: Int
    /// The async actions the task declares (identifiers, sections included).
    public var asyncActions: [String]

    public init(taskIdentifier: String, schemaIdentifier: String? = nil, versionString: String? = nil,
                stepCount: Int, asyncActions: [String]) {
        self.taskIdentifier = taskIdentifier
        self.schemaIdentifier = schemaIdentifier
        self.versionString = versionString
        self.stepCount = stepCount
        self.asyncActions = asyncActions
    }

    public static var schema: JSONSchema {
        .object([
            .init("taskIdentifier", .string()), .init("schemaIdentifier", .string()),
            .init("versionString", .string()), .init("stepCount", .integer(minimum: 0)),
            .init("asyncActions", .array(.string())),
        ], required: ["taskIdentifier", "stepCount", "asyncActions"])
    }
}
