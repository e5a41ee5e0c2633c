import AsyncActions
import TaskModel
import TaskNavigation

extension SessionMachine {
    /// What the machine takes: a command of the front end or something that happened.
    enum Input: Sendable, Hashable {
        case command(Command)
        case event(Event)

        /// This input, stamped with the CLOCK_MONOTONIC seconds at which it happened.
        func at(_ monotonic: Double) -> Stamped { Stamped(input: self, atMonotonic: monotonic) }
    }

    /// An input with the time it happened, stamped by the actor as the input is made (a command
    /// as it arrives, a clock job or deadline as it wakes, an event as the await that produced
    /// it ends), before it waits for its turn (docs/session.md, "The machine"). The machine reads
    /// no clock: whatever it decides at a time (a timer started, paused or ended, a permission
    /// deadline passed) it decides at this one.
    struct Stamped: Sendable, Hashable {
        var input: Input
        var atMonotonic: Double

        /// `.command(.startTimer, at: 100)`: a command stamped, as the test tables write it.
        static func command(_ command: Command, at monotonic: Double) -> Stamped { Input.command(command).at(monotonic) }
        /// `.event(.clockDue(generation: 1), at: 110)`: an event stamped.
        static func event(_ event: Event, at monotonic: Double) -> Stamped { Input.event(event).at(monotonic) }
    }

    /// The session's commands (docs/session.md, "Commands"); their time comes with the `Stamped`
    /// input.
    enum Command: Sendable, Hashable {
        case start
        case forward(StepResultInput)
        case back
        case skip(to: String?)
        case abandon
        case startTimer
        case pauseTimer
        case resumeTimer
        case answerPermission(id: UInt64, granted: Bool)
        case cancel(save: Bool)
        case interrupt
    }

    /// What happened while the session runs: the step clock, permission deadlines, voice and
    /// action outcomes, and the ends of effects the actor carried out. Each is an outcome of
    /// real I/O or of waiting; none exists only to read the clock.
    enum Event: Sendable, Hashable {
        /// The clock job armed as `generation` woke up.
        case clockDue(generation: UInt64)
        /// The permission question `id` may have passed its deadline.
        case permissionDeadline(id: UInt64)
        /// A prompt started to be heard.
        case promptStarted(stepPath: String, text: String)
        /// The controller of `reference` was created (its owner or start step at `location` is
        /// shown): its permissions are decided now.
        case actionCreated(AsyncActionReference, on: StepLocation)
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
        /// The step at `stepPath`, whose timer starts by itself, is presented (its actions
        /// created, `stepShown` published, its prompts prepared): its timer starts now, unless a
        /// permission question is open (then it starts as the last one is answered). Fed back by
        /// `then`, because the timer's zero is the end of the presentation's awaits (the `end`
        /// prompt of the step left heard, the `start` prompt's lead), which only the actor sees.
        case stepPresented(stepPath: String)
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
