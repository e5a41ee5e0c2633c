/// One move of the navigator and everything the runner must do for it.
public struct NavigationTransition: Sendable, Hashable {
    /// The step left; nil at the task's start.
    public var from: StepLocation?
    /// The step entered; nil when the task finished.
    public var to: StepLocation?
    public var direction: NavigationDirection
    /// Sections and subtasks left by this move, innermost first (their results close).
    public var exitedContainers: [StepLocation]
    /// Sections and subtasks entered by this move, outermost first (their results open).
    public var enteredContainers: [StepLocation]
    /// Async actions to stop because the step left (or its owner) ended.
    public var stopAsyncActions: [AsyncActionReference]
    /// Async actions to start for the step entered.
    public var startAsyncActions: [AsyncActionReference]
    /// True when the step entered has a timer (active, countdown): its async actions start when
    /// the timer starts, not when the step appears (docs/task-format.md).
    public var startsWithStepTimer: Bool

    public init(from: StepLocation?, to: StepLocation?, direction: NavigationDirection,
                exitedContainers: [StepLocation] = [], enteredContainers: [StepLocation] = [],
                stopAsyncActions: [AsyncActionReference] = [], startAsyncActions: [AsyncActionReference] = [],
                startsWithStepTimer: Bool = false) {
        self.from = from
        self.to = to
        self.direction = direction
        self.exitedContainers = exitedContainers
        self.enteredContainers = enteredContainers
        self.stopAsyncActions = stopAsyncActions
        self.startAsyncActions = startAsyncActions
        self.startsWithStepTimer = startsWithStepTimer
    }

    /// True when the move ended the task.
    public var isFinished: Bool { to == nil }
}
