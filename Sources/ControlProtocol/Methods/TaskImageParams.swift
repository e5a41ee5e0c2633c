/// `tasks.image`: an image beside a task file, by the name a step or `tasks.list` gives it.
public struct TaskImageParams: Sendable, Hashable, ControlParams {
    /// The task file as `tasks.list` names it.
    public var task: String
    /// The image name as the task writes it (`imageName`, `icon`), with or without extension.
    public var name: String

    public init(task: String, name: String) {
        self.task = task
        self.name = name
    }

    public static var schema: JSONSchema {
        .object([
            .init("task", .described("The task file as tasks.list names it.", .string())),
            .init("name", .described("The image name as the task writes it, with or without extension.", .string())),
        ], required: ["task", "name"])
    }
}
