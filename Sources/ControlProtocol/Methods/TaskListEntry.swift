/// One task file of the task directory: what a home screen shows of it, or why it cannot run.
///
/// `title`, `detail`, `icon` and `estimatedMinutes` are the task's own keys (SageResearch's task
/// info) or, when the task has none, those of its first step. A file that does not load has
/// `error` and no identifier.
public struct TaskListEntry: Sendable, Hashable, ControlSchemaDescribing {
    /// The file name relative to the task directory, as `task.load`'s `path` and `tasks.image`'s
    /// `task` take it.
    public var file: String
    public var identifier: String?
    public var title: String?
    public var detail: String?
    /// An image name for `tasks.image`.
    public var icon: String?
    public var estimatedMinutes: Double?
    /// Why the file cannot be loaded; the other members are absent then.
    public var error: String?

    public init(file: String, identifier: String? = nil, title: String? = nil, detail: String? = nil,
                icon: String? = nil, estimatedMinutes: Double? = nil, error: String? = nil) {
        self.file = file
        self.identifier = identifier
        self.title = title
        self.detail = detail
        self.icon = icon
        self.estimatedMinutes = estimatedMinutes
        self.error = error
    }

    public static var schema: JSONSchema {
        .object([
            .init("file", .described("Relative to the task directory, as task.load's path takes it.", .string())),
            .init("identifier", .string()), .init("title", .string()), .init("detail", .string()),
            .init("icon", .described("An image name for tasks.image.", .string())),
            .init("estimatedMinutes", .number),
            .init("error", .described("Why the file cannot be loaded; the other members are absent then.", .string())),
        ], required: ["file"])
    }
}
