/// Why the navigator refused a move.
public enum NavigationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `goBack()` at the first step.
    case atFirstStep
    /// A move asked for after the task finished (or before `start()`).
    case notRunning
    /// A `skipToIdentifier` (from a result or a skip) names no step reachable from the current one.
    case unknownStep(String)
    /// Skip rules sent navigation round in circles without reaching a step.
    case loop(String)

    public var description: String {
        switch self {
        case .atFirstStep:
            "There is no step before the first one; go forward or cancel instead."
        case .notRunning:
            "The task is not running: start it first, or load it again after it finished."
        case .unknownStep(let identifier):
            "No step \"\(identifier)\" in this section or the sections and task around it; skip to a step identifier of the task."
        case .loop(let identifier):
            "Navigation rules loop without reaching a step (last at \"\(identifier)\"); fix the task's nextStepIdentifier or cohort rules."
        }
    }
}
