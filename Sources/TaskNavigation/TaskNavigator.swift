public import TaskModel

/// Drives a task step by step, the way a daemon session does: start, go forward with the step's
/// result, go back, skip, and the step timer finishing. Each move returns a
/// `NavigationTransition` saying which sections were left and entered and which async actions
/// to stop and start. A value type with no side effects: the caller performs the transition.
///
/// Where a move leads and the progress shown are the `stepNavigator`'s decisions (the task's
/// custom navigator, else the conditional one); the navigator keeps the history and the async
/// actions itself.
public struct TaskNavigator: Sendable {
    public let task: TaskDefinition
    /// Decides the first step, the steps after and before, and the progress.
    public let stepNavigator: any StepNavigator
    /// Full-instructions mode (the default) shows `fullInstructionsOnly` steps.
    public var showsFullInstructions: Bool {
        get { forward.showsFullInstructions }
        set { forward.showsFullInstructions = newValue }
    }
    /// The participant's cohorts, tested by `beforeCohortRules`/`afterCohortRules`.
    public var cohorts: Set<String> {
        get { forward.cohorts }
        set { forward.cohorts = newValue }
    }
    /// The steps shown so far, in order; a backward move truncates it.
    public private(set) var history: [StepLocation] = []
    /// The async actions started and not yet stopped.
    public private(set) var runningAsyncActions: [AsyncActionReference] = []
    public private(set) var isFinished = false

    var forward: ForwardNavigation

    /// A navigator with `stepNavigator` (by default the task's own: `TaskDefinition.stepNavigator`).
    public init(task: TaskDefinition, showsFullInstructions: Bool = true, cohorts: Set<String> = [],
                stepNavigator: (any StepNavigator)? = nil) {
        self.task = task
        self.stepNavigator = stepNavigator ?? task.stepNavigator
        forward = ForwardNavigation(task: task, cohorts: cohorts, showsFullInstructions: showsFullInstructions)
    }

    /// The step shown now; nil before `start()` and after the task finished.
    public var currentLocation: StepLocation? { isFinished ? nil : history.last }
    public var currentStep: Step? { currentLocation.flatMap(task.step(at:)) }
    public var currentStepPath: String? { currentLocation.map(task.stepPath(of:)) }

    /// Enters the first step (or finishes at once for a task showing no step).
    public mutating func start() throws(NavigationError) -> NavigationTransition {
        guard history.isEmpty, !isFinished else { throw .notRunning }
        return move(from: nil, to: try stepNavigator.firstStep(in: context), direction: .forward)
    }

    /// Goes forward from the current step with its result (whose `skipToIdentifier` wins).
    public mutating func goForward(with result: (any ResultData)? = nil) throws(NavigationError) -> NavigationTransition {
        try goForward(skipToIdentifier: (result as? any NavigationResultData)?.skipToIdentifier)
    }

    /// Goes forward from the current step, to `skipToIdentifier` when given.
    public mutating func goForward(skipToIdentifier: String?) throws(NavigationError) -> NavigationTransition {
        guard let current = currentLocation else { throw .notRunning }
        let next = try stepNavigator.step(after: current, skipToIdentifier: skipToIdentifier, in: context)
        let backward = next.map { history.contains($0) } ?? false
        return move(from: current, to: next, direction: backward ? .backward : .forward)
    }

    /// Skips the current step: to `identifier` (a skip action's `skipToIdentifier`) or onward.
    public mutating func skip(to identifier: String? = nil) throws(NavigationError) -> NavigationTransition {
        try goForward(skipToIdentifier: identifier)
    }

    /// Returns to the step shown before the current one.
    public mutating func goBack() throws(NavigationError) -> NavigationTransition {
        guard let current = currentLocation else { throw .notRunning }
        guard let previous = stepNavigator.step(before: current, in: context) else { throw .atFirstStep }
        return move(from: current, to: previous, direction: .backward)
    }

    /// The current step's timer finished: stops the actions whose `stopStepIdentifier` names
    /// it now, before the person moves on, and returns them.
    public mutating func stepTimerFinished() -> [AsyncActionReference] {
        guard let current = currentLocation else { return [] }
        let stopping = AsyncActionRules.actionsToStop(whenTimerFinishesAt: current, running: runningAsyncActions, in: task)
        runningAsyncActions.removeAll { stopping.contains($0) }
        return stopping
    }

    /// Ends the task (cancel or failure): every running action stops.
    public mutating func finish() -> NavigationTransition {
        move(from: currentLocation, to: nil, direction: .forward)
    }

    /// Puts a navigator for a resumed run where the saved one was: `history` as it was shown
    /// (the last entry is the step shown) and the async actions that were running. Refused once
    /// the navigator has moved.
    public mutating func restore(history: [StepLocation], runningAsyncActions: [AsyncActionReference]) throws(NavigationError) {
        guard self.history.isEmpty, !isFinished else { throw .notRunning }
        guard let last = history.last, task.step(at: last) != nil, history.allSatisfy({ task.step(at: $0) != nil }) else {
            throw .unknownStep(history.last.map(\.description) ?? "")
        }
        self.history = history
        self.runningAsyncActions = runningAsyncActions
    }

    /// True when going back from the current step has somewhere to go: the step navigator
    /// names a step before it (SageResearch's `hasStepBefore`; a custom navigator may refuse).
    public var hasStepBefore: Bool {
        guard let current = currentLocation else { return false }
        return stepNavigator.step(before: current, in: context) != nil
    }

    /// True when going forward from the current step without a skip target shows another step
    /// rather than ending the task (SageResearch's `hasStepAfter`, which peeks at the next step).
    public var hasStepAfter: Bool {
        guard let current = currentLocation else { return false }
        return ((try? stepNavigator.step(after: current, skipToIdentifier: nil, in: context)) ?? nil) != nil
    }

    /// The progress shown for the current step (SageResearch's progress markers).
    public var progress: StepProgress? {
        currentLocation.flatMap { stepNavigator.progress(of: $0, in: context) }
    }

    /// What the step navigator decides from: the conditional navigation and the history.
    public var context: NavigationContext {
        var conditional = forward
        conditional.sectionsWithResults = sectionsShown
        return NavigationContext(conditional: conditional, history: history)
    }

    private mutating func move(from: StepLocation?, to: StepLocation?, direction: NavigationDirection) -> NavigationTransition {
        let fromContainers = from?.ancestors.dropFirst() ?? []
        let toContainers = to?.ancestors.dropFirst() ?? []
        let exited = fromContainers.filter { container in to.map { !$0.isWithin(container) } ?? true }.reversed()
        let entered = toContainers.filter { container in from.map { !$0.isWithin(container) } ?? true }

        var stops: [AsyncActionReference] = []
        if let from {
            stops = AsyncActionRules.actionsToStop(leaving: from, to: to, running: runningAsyncActions, in: task)
        } else if to == nil {
            stops = runningAsyncActions
        }
        runningAsyncActions.removeAll { stops.contains($0) }
        var starts: [AsyncActionReference] = []
        if let to {
            starts = AsyncActionRules.actionsToStart(entering: to, from: from, in: task).filter { !runningAsyncActions.contains($0) }
            runningAsyncActions += starts
            if direction == .backward, let index = history.lastIndex(of: to) {
                history.removeSubrange(index...)
            }
            history.append(to)
        } else {
            isFinished = true
        }
        return NavigationTransition(
            from: from, to: to, direction: direction, exitedContainers: Array(exited), enteredContainers: Array(entered),
            stopAsyncActions: stops, startAsyncActions: starts,
            startsWithStepTimer: to.flatMap(task.step(at:)).map { $0.effectiveDuration != nil && $0.kind.isTimed } ?? false)
    }
}
