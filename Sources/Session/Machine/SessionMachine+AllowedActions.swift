import TaskModel
import TaskNavigation

extension SessionMachine {
    /// A move a step may refuse.
    enum RefusableMove: Sendable {
        case back
        case skip
    }

    /// The actions a front end may offer on `step` as it shows (`stepShown.allowedActions`),
    /// from the same rules that refuse `back` and `skip` (`refusal(of:on:)`), so that what a
    /// screen offers and what the machine takes cannot disagree. A task or step that hides
    /// `cancel` (SageResearch shows no close button then) offers none; `run.cancel` is still
    /// taken, for a coordinator's tool (docs/protocol.md).
    func allowedActions(on step: Step) -> [String] {
        var allowed = hides("cancel", on: step) ? ["forward", "abandon"] : ["forward", "cancel", "abandon"]
        if refusal(of: .back, on: step) == nil { allowed.append("back") }
        if refusal(of: .skip, on: step) == nil { allowed.append("skip") }
        if step.kind.isTimed, step.effectiveDuration != nil { allowed += ["timer.start", "timer.pause", "timer.resume"] }
        return allowed
    }

    /// Why `move` is not taken on `step`, the step shown; nil when it is.
    func refusal(of move: RefusableMove, on step: Step) -> SessionError? {
        switch move {
        case .back:
            if step.kind == .completion {
                return SessionError(.notAllowed, "The completion step \"\(step.identifier)\" cannot go back: the results are written. Go forward to finish the task.")
            }
            if hides("goBackward", on: step) {
                return SessionError(.notAllowed, "The step \"\(step.identifier)\" hides the back action (shouldHideActions); go forward or cancel instead.")
            }
            if !navigator.hasStepBefore {
                return SessionError(.notAllowed, NavigationError.atFirstStep.description)
            }
        case .skip:
            if hides("skip", on: step) {
                return SessionError(.notAllowed, "The step \"\(step.identifier)\" hides the skip action (shouldHideActions); go forward instead.")
            }
            if step.kind == .completion {
                return SessionError(.notAllowed, "The completion step \"\(step.identifier)\" cannot be skipped; go forward to finish the task.")
            }
        }
        return nil
    }
}
