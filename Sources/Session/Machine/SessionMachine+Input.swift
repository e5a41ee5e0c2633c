import AsyncActions
import TaskModel
import TaskNavigation

extension SessionMachine {
    /// What the machine takes: a command of the front end or something that happened.
    enum Input: Sendable, Hashable {
        case command(Command)
        case event(Event)
    }

    /// The session's commands (docs/session.md, "Commands"). Times are CLOCK_MONOTONIC seconds
    /// read by the actor when the command's turn comes.
    enum Command: Sendable, Hashable {
        case start
        case forward(StepResultInput)
        case back
        case skip(to: String?)
        case abandon
        case startTimer(atMonotonic: Double)
        case pauseTimer(atMonotonic: Double)
        case resumeTimer(atMonotonic: Double)
        case answerPermission(id: UInt64, granted: Bool)
        case cancel(save: Bool)
        case interrupt
    }

    /// What happened while the session runs: the step clock, permission deadlines, voice and
    /// action outcomes, and the ends of effects the actor carried out.
    enum Event: Sendable, Hashable {
        /// The clock job armed as `generation` woke up.
        case clockDue(generation: UInt64, atMonotonic: Double)
        /// The permission question `id` may have passed its deadline.
        case permissionDeadline(id: UInt64, atMonotonic: Double)
        /// A prompt started to be heard.
        case promptStarted(stepPath: String, text: String)
        /// The controller of `reference` was created (its owner or start step at `location` is
        /// shown): its permissions are decided now.
        case actionCreated(AsyncActionReference, on: StepLocation, atMonotonic: Double)
        /// The controller's own permission check (does its device open?) ended; `failure` says why
        /// not, with its code (`unsupported` for a type this device has no recorder for).
        case deviceChecked(key: String, failure: AsyncActionError?)
        /// The action `key` could not start.
        case actionStartFailed(key: String, message: String)
        /// The actions `keys` (every active one when nil) are to stop: running ones stop, the
        /// others are cancelled.
        case stopRequested(keys: [String]?)
        /// Every active action is to be cancelled (a discarded run).
        case cancelRequested
        /// The stop of the action `key` returned.
        case actionStopped(key: String, outcome: StopOutcome)
        /// The action `key` failed while recording.
        case actionFailed(key: String, result: ErrorResult)
        /// A permission answer was carried out; the session may go on when none is open.
        case permissionsSettled(atMonotonic: Double)
        /// The step shown is set up (its actions created, `stepShown` published, its prompts
        /// prepared): its timer may start by itself, or its start commands run.
        case stepSetUp(atMonotonic: Double)
        /// The step timer's end was carried out (actions stopped, finish commands performed).
        case timerEndCarriedOut(stepPath: String)
        /// The run should end for `reason` (a move past the last step).
        case endRun(FinishReason)
        /// The actor has stopped what was active and is writing the run's end: the state
        /// clients see is now final.
        case runFinished(FinishReason)
    }

    /// What a controller's stop returned.
    enum StopOutcome: Sendable, Hashable {
        /// Its results (the actor holds them until the machine says to record them).
        case results
        /// The error result of a failure before or during the stop.
        case errorResult(ErrorResult)
        /// The stop threw.
        case failed(message: String)
    }
}
