/// The sound a step's `playSound*` command plays.
public enum StepSound: Sendable, Hashable {
    case start
    case finish
}
