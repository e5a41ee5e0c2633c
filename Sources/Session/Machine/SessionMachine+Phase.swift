import TaskNavigation

extension SessionMachine {
    /// Where a run is, each case with what it carries (docs/session.md, "The machine"). What a
    /// client sees (`state`: running, paused, waiting for permission …) is derived from it.
    enum Phase: Sendable, Hashable {
        /// Loaded and not started; a resumed run shows `resumePoint` again when it starts.
        case loaded(resumePoint: StepLocation?)
        /// Started and going on.
        case started(Progress)
        /// Ending for the reason decided, from where it was (nil: it never started): nothing
        /// but the end is carried out, and clients still see the step it was on.
        case ending(FinishReason, Progress?)
        /// The end is carried out: finished, or saved for a later resume.
        case over(FinishReason)

        /// The step shown, where there is one.
        var shown: ShownStep? {
            switch self {
            case .started(let progress): progress.shown
            case .ending(_, let progress): progress?.shown
            case .loaded, .over: nil
            }
        }

        /// Sets the step shown of a started or ending run (a run not started or over shows none).
        mutating func setShown(_ shown: ShownStep?) {
            switch self {
            case .started(var progress):
                progress.shown = shown
                self = .started(progress)
            case .ending(let reason, var progress?):
                progress.shown = shown
                self = .ending(reason, progress)
            case .loaded, .ending(_, nil), .over:
                break
            }
        }

        /// The result is announced now (the last completion step shows).
        mutating func markResultAnnounced() {
            if case .started(var progress) = self {
                progress.resultAnnounced = true
                self = .started(progress)
            }
        }
    }

    /// A started run: the step shown with its clock (nil once a move went past the last step,
    /// until the end it decided comes), and whether the run waits for permission answers before
    /// it goes on (set as an action asks, cleared once every question is settled).
    struct Progress: Sendable, Hashable {
        var shown: ShownStep?
        var waitingForPermission = false
        /// The last completion step showed: the result was written and `taskResultReady`
        /// announced then, not again as the run ends.
        var resultAnnounced = false

        /// What clients see of it: waiting first, then the step timer's pause.
        var state: SessionState {
            if waitingForPermission { return .waitingForPermission }
            return shown?.clock?.timer.isPaused == true ? .paused : .running
        }
    }

    /// Where the session is, as clients see it.
    var state: SessionState {
        switch phase {
        case .loaded: .loaded
        case .started(let progress): progress.state
        case .ending(_, let progress): progress?.state ?? .loaded
        case .over(let reason): reason == .saved ? .saved : .finished(reason)
        }
    }

    /// The step shown; nil before the start and after the end.
    var shown: ShownStep? { phase.shown }

    /// Why the run is ending, from the moment the machine decided it until `runFinished`.
    var ending: FinishReason? {
        if case .ending(let reason, _) = phase { return reason }
        return nil
    }

    /// Whether the run ending now announces `taskResultReady` as it finishes (SageResearch's
    /// `handleTaskResultReady`, docs/session.md): a run that completes, exits early or is
    /// abandoned does, unless its last completion step announced it already.
    var announcesResultAtEnd: Bool {
        guard case .ending(let reason, let progress) = phase else { return false }
        return [.completed, .earlyExit, .abandoned].contains(reason) && progress?.resultAnnounced != true
    }
}
