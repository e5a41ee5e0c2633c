/// `tasks.list`: the task files in the daemon's task directory, by file name.
public struct TaskList: Sendable, Hashable, ControlSchemaDescribing, ControlResult {
    /// The task directory the daemon lists (its `taskDirectory` setting).
    public var taskDirectory: String
    public var tasks: [TaskListEntry]

    public init(taskDirectory: String, tasks: [TaskListEntry]) {
        self.taskDirectory = taskDirectory
        self.tasks = tasks
    }

    public static var schema: JSONSchema {
        .object([
            .init("taskDirectory", .string()),
            .init("tasks", .array(.reference(to: TaskListEntry.self))),
        ], required: ["taskDirectory", "tasks"])
    }
}
