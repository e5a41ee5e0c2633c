import TaskModel

/// Decides where a task goes: its first step, the step after and before the one shown, and the
/// progress shown. SageResearch's `RSDStepNavigator`, as the session drives it (docs/custom-tasks.md).
///
/// Every requirement has a default: SageResearch's conditional navigation (`ForwardNavigation`,
/// back to the step shown before, `StepProgress` from the progress markers), which is what
/// `ConditionalStepNavigator` is. A custom navigator implements only what it changes, as a
/// Swift type conforming to `RSDConditionalStepNavigator` does in SageResearch, and can call
/// `context.conditional` for the default answer. A custom task type vends its navigator through
/// `StepNavigatorProviding`.
///
/// `TaskNavigator` calls these with the session's history and settings and does the rest:
/// sections entered and left, async actions started and stopped, the history itself. A
/// navigator is a value without side effects; it must answer the same for the same context.
public protocol StepNavigator: Sendable {
    /// The first step shown; nil when the task shows no step at all.
    func firstStep(in context: NavigationContext) throws(NavigationError) -> StepLocation?

    /// Where going forward from the step at `location` leads, with `skipToIdentifier` from the
    /// step's result or a skip action; nil when the task ends.
    func step(after location: StepLocation, skipToIdentifier: String?, in context: NavigationContext) throws(NavigationError) -> StepLocation?

    /// The step going back from `location` returns to; nil when there is none (the back action
    /// is refused as at the first step).
    func step(before location: StepLocation, in context: NavigationContext) -> StepLocation?

    /// The progress markers of the task itself, as SageResearch's navigator's `progressMarkers`:
    /// nil estimates the progress from the steps and the history.
    func progressMarkers(in context: NavigationContext) -> [String]?

    /// The progress shown for the step at `location`; nil when there is none to show.
    func progress(of location: StepLocation, in context: NavigationContext) -> StepProgress?
}

extension StepNavigator {
    /// SageResearch's conditional navigation (`ForwardNavigation.firstStep()`).
    public func firstStep(in context: NavigationContext) throws(NavigationError) -> StepLocation? {
        try context.conditional.firstStep()
    }

    /// SageResearch's conditional navigation (`ForwardNavigation.step(after:skipToIdentifier:)`).
    public func step(after location: StepLocation, skipToIdentifier: String?, in context: NavigationContext) throws(NavigationError) -> StepLocation? {
        try context.conditional.step(after: location, skipToIdentifier: skipToIdentifier)
    }

    /// The step shown before `location` in the history.
    public func step(before location: StepLocation, in context: NavigationContext) -> StepLocation? {
        guard let index = context.history.lastIndex(of: location), index > 0 else { return nil }
        return context.history[index - 1]
    }

    /// The task's own `progressMarkers`.
    public func progressMarkers(in context: NavigationContext) -> [String]? {
        context.task.progressMarkers
    }

    /// `StepProgress` from `progressMarkers(in:)` (a section's steps use the section's markers).
    public func progress(of location: StepLocation, in context: NavigationContext) -> StepProgress? {
        var task = context.task
        let markers = progressMarkers(in: context)
        if markers != task.progressMarkers { task.container.progressMarkers = markers }
        return StepProgress.progress(of: location, history: context.history, in: task)
    }
}
