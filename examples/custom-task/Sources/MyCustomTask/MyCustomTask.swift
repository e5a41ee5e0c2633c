public import TaskModel
public import TaskNavigation

/// SageResearch's migration guide's custom task: a task type of its own, `myCustomTask`, that
/// decodes `value` (an integer, 0 when absent) beside everything an assessment has, and vends
/// its own navigator built from what it decoded.
///
/// Register it once, then load and run tasks as usual:
///
/// ```swift
/// var registry = TypeRegistry()
/// registry.registerTaskType(MyCustomTask.taskType, MyCustomTask.self)
/// let (task, _) = try TaskLoader(registry: registry).loadTask(path: "foo.json")
/// var navigator = TaskNavigator(task: task)   // drives MyCustomNavigator
/// ```
///
/// A daemon reading such tasks is `await ActiveTaskDaemon.run(registry: registry)` (the Daemon
/// library, docs/custom-tasks.md).
public struct MyCustomTask: StepNavigatorProviding, Equatable {
    /// The task `type` that selects this decoding.
    public static let taskType = "myCustomTask"

    public var value: Int

    private enum CodingKeys: String, CodingKey { case value }

    public init(value: Int = 0) {
        self.value = value
    }

    /// The guide's `decode(from:)`: the task's other keys are decoded by the task model.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decodeIfPresent(Int.self, forKey: .value) ?? 0
    }

    /// The guide's lazily built `stepNavigator`: built once, after decoding, from `value`.
    public func stepNavigator(for task: TaskDefinition) -> any StepNavigator {
        MyCustomNavigator(value: value)
    }
}
