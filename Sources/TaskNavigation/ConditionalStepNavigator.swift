/// SageResearch's `RSDConditionalStepNavigatorObject`: the navigator of every built-in task
/// type, with `StepNavigator`'s default answers throughout.
public struct ConditionalStepNavigator: StepNavigator {
    public init() {}
}
