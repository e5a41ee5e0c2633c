public import TaskModel

/// A custom task type that vends its own step navigator, as a SageResearch task overriding
/// `stepNavigator` does (docs/custom-tasks.md). `TaskNavigator(task:)` asks the task's
/// `TaskDefinition.custom` for it once, after decoding; a custom task that does not conform
/// runs with `ConditionalStepNavigator`.
public protocol StepNavigatorProviding: CustomTask {
    /// The navigator of `task`, whose `custom` is this value.
    func stepNavigator(for task: TaskDefinition) -> any StepNavigator
}

extension TaskDefinition {
    /// The navigator this task runs with: its custom type's, else the conditional navigator.
    public var stepNavigator: any StepNavigator {
        (custom as? any StepNavigatorProviding)?.stepNavigator(for: self) ?? ConditionalStepNavigator()
    }
}
