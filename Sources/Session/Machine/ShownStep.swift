import TaskModel
import TaskNavigation

/// The step a session shows, with what has happened to it: whether its `end` prompt was
/// spoken, where its result comes from, and its step clock. A new step shown is a new value,
/// so nothing of the step left carries over.
struct ShownStep: Sendable, Hashable {
    /// Whether the step's `end` prompt has been heard (spoken by the timer, or as the step ended).
    enum EndPrompt: Sendable, Hashable {
        case notSpoken
        case spoken
    }

    /// Where the step's result comes from.
    enum ResultSource: Sendable, Hashable {
        /// The base result made when the step was shown; it gets its end date when the step is left.
        case shown
        /// The front end sent the step's result with its forward command.
        case frontEnd
    }

    var location: StepLocation
    var path: String
    var endPrompt: EndPrompt = .notSpoken
    var result: ResultSource = .shown
    /// The step timer of an active or countdown step; nil for a step without one.
    var clock: StepClock?
}

/// The step timer of the step shown and the clock job armed for it: a tick or end only counts
/// when it comes from the generation armed now (a pause, move or end disarms it).
struct StepClock: Sendable, Hashable {
    var timer: StepTimer
    /// The generation of the clock job allowed to tick; nil when none is.
    var armed: UInt64?
}
