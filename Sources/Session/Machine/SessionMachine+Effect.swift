import TaskModel
import TaskNavigation

extension SessionMachine {
    /// What the actor must do, in order (docs/session.md, "The machine"). Effects that await
    /// come back as `Event`s where the machine must decide what follows.
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
        /// The result made when the step at `location` was shown gets its end date.
        case endStepResult(at: StepLocation)
        /// Sections and subtasks left close their results, those entered open theirs.
        case moveSections(exited: [StepLocation], entered: [StepLocation], direction: NavigationDirection)
        /// The step at `location` becomes the one in the results and the history; running
        /// recorders write a step-change marker.
        case showStep(at: StepLocation, direction: NavigationDirection)
        /// Create these actions (their owner or start step is shown) and decide their permissions.
        case createActions([AsyncActionReference], on: StepLocation)
        /// Make the step's clips, publish `stepShown`, speak its time-0 prompts and prepare the
        /// timed ones.
        case presentStep(at: StepLocation, direction: NavigationDirection)
        /// Read the clock and feed `stepSetUp`: the timer may start by itself.
        case setUpStep
        /// Stop every action still active (the last completion step shows).
        case stopActiveActions
        /// Write the results at SageResearch's result-ready moment.
        case writeResults
        /// Start every created action that has permission (the step timer started).
        case startReadyActions(stepPath: String)
        /// Stop these actions (their results are recorded) or cancel them if never started.
        case stopActions([AsyncActionReference])
        /// The step's sound and vibration commands for its start or finish.
        case performStepCommands(stepPath: String, finishing: Bool)
        case voiceStartTimer(atMonotonic: Double)
        case voicePauseTimer(speakWarning: Bool)
        case voiceResumeTimer
        case publishTimer(TimerEvent)
        case warn(String)
        /// Start the clock job of `generation`: it ticks and ends the timer until disarmed.
        case armClock(generation: UInt64)
        /// Carry out the answer to a permission question: publish it, then ask the devices of
        /// the actions it granted or fail the ones it denied.
        case answerPermission(PermissionLedger.Question, granted: Bool, byTimeout: Bool)
        /// End the run for `reason`: stop (or cancel) what is active, write results, manifest,
        /// archive and quality, publish `taskFinished`.
        case finishRun(FinishReason)
        case writeManifest
        /// Feed this event back once the effects before it are carried out.
        case then(Event)
    }
}
