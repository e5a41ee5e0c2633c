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
        /// Carry out a navigator move (docs/session.md, "A move"): end `leaving`, stop and create
        /// actions, close and open sections, show the new step.
        case move(NavigationTransition, leaving: ShownStep?)
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
