/// Why a run ended (docs/runs.md).
public enum FinishReason: String, Codable, Sendable, Hashable {
    /// The last step was reached.
    case completed
    /// A step's navigation said `exit`.
    case earlyExit
    /// The front end abandoned the task (`abandonAssessment`).
    case abandoned
    /// Cancelled with save; the run can be resumed.
    case saved
    /// Cancelled without save.
    case discarded
    /// The task could not go on (a controller that ends the task on interrupt failed).
    case failed
    /// The daemon stopped or crashed during the run; recovery finished it.
    case interrupted
}
