public import TaskModel

/// What a `StepNavigator` sees when it decides: the task, the steps shown so far and the
/// built-in conditional navigation with the session's cohorts and instruction mode.
public struct NavigationContext: Sendable {
    /// SageResearch's conditional navigation over the task, with the session's settings: the
    /// default answer a custom navigator can fall back on.
    public var conditional: ForwardNavigation
    /// The steps shown so far, in order; the last is the step shown.
    public var history: [StepLocation]

    public init(conditional: ForwardNavigation, history: [StepLocation]) {
        self.conditional = conditional
        self.history = history
    }

    public var task: TaskDefinition { conditional.task }
    /// The participant's cohorts, tested by `beforeCohortRules`/`afterCohortRules`.
    public var cohorts: Set<String> { conditional.cohorts }
    /// False in abbreviated-instructions mode (`fullInstructionsOnly` steps are skipped).
    public var showsFullInstructions: Bool { conditional.showsFullInstructions }
}
