import AsyncActions
import TaskModel
import TaskNavigation

extension SessionMachine {
    /// What the actor must do, in order (docs/session.md, "The machine"): I/O, voice, publishing
    /// and waiting, nothing the machine could decide itself. Effects that await come back as
    /// `Event`s where the machine must decide what follows.
    enum Effect: Sendable, Hashable {
        /// A fresh run begins: the results start now.
        case beginResults
        /// A saved run goes on at `stepPath`.
        case resumeResults(stepPath: String)
        /// The step result the front end sent for the step at `location`.
        case recordStepResult(StepResultInput, at: StepLocation)
        /// `abandonAssessment: true` in the result of the section (or task) around the step shown.
        case recordAbandonment(ownerLocation: StepLocation)
        /// Speak `text` now (the `end` prompt of the step left).
        case speak(String, stepPath: String)
        /// Drop what the voice had queued for the step left.
        case voiceEndStep
        /// Wait until what the voice was given has been heard: the `end` prompt of a step left
        /// forward is over before the next step shows, as SageResearch's `goForward` speaks the
        /// end instruction and moves on in its completion.
        case awaitVoice
        /// The run starts or resumes: the voice holds its playback stream running until the run
        /// ends, so the device's delay is settled before the first prompt (docs/audio.md).
        case voiceHoldStream
        /// The result made when the step at `location` was shown gets its end date.
        case endStepResult(at: StepLocation)
        /// Sections and subtasks left close their results, those entered open theirs.
        case moveSections(exited: [StepLocation], entered: [StepLocation], direction: NavigationDirection, resume: Bool = true)
        /// The step at `location` becomes the one in the results and the history; running
        /// recorders write a step-change marker.
        case showStep(at: StepLocation, direction: NavigationDirection)
        /// Create the controllers of these actions (their owner or start step is shown) and feed
        /// `actionCreated` for each.
        case createActions([AsyncActionReference], on: StepLocation)
        /// Ask the front end: publish the question (explained by the `permissions` entry of the
        /// step at `location`, else the task's first) and wait for its deadline.
        case askPermission(PermissionLedger.Question, actionIdentifier: String, on: StepLocation)
        /// The controller's own permission check; feeds `deviceChecked`.
        case requestDevice(key: String)
        /// Start these controllers all at once; feeds `actionStartFailed` for each that cannot.
        case startActions([String], stepPath: String)
        /// Stop these controllers all at once; feeds `actionStopped` for each, in this order.
        case stopControllers([String])
        /// Cancel these controllers (their files are deleted).
        case cancelControllers([String])
        /// Record the results the stop of `key` returned into its owner's result.
        case recordActionResults(key: String)
        /// Record the `<identifier>_error` result of `key` (the one given, else one of `code`
        /// and `message`) and publish `actionFailed`.
        case recordActionFailure(key: String, code: AsyncActionError.Code, message: String, result: ErrorResult?)
        case publishPermissionAnswered(PermissionLedger.Question, granted: Bool)
        /// Make the step's clips, publish `stepShown`, speak its time-0 prompts and prepare the
        /// timed ones.
        case presentStep(at: StepLocation, direction: NavigationDirection)
        /// Write the results at SageResearch's result-ready moment.
        case writeResults
        /// Stop every action still active, cancel those that never started (the last completion
        /// step shows). Fed back as `stopRequested` once carried out: the step's own actions are
        /// created by the effects before it, after the machine decided the move.
        case stopActiveActions
        /// The step's sound and vibration commands for its start or finish.
        case performStepCommands(stepPath: String, finishing: Bool)
        case voiceStartTimer(atMonotonic: Double)
        case voicePauseTimer(speakWarning: Bool)
        case voiceResumeTimer
        case publishTimer(TimerEvent)
        case warn(String)
        /// Start the clock job of `generation`: it ticks and ends the timer until disarmed.
        case armClock(generation: UInt64)
        /// End the run for `reason`: stop (or cancel) what is active, write results, manifest,
        /// archive and quality, publish `taskFinished`.
        case finishRun(FinishReason)
        case writeManifest
        /// Feed this event back, stamped then, once the effects before it are carried out.
        case then(Event)
    }
}
