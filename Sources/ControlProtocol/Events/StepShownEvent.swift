public import TaskNavigation
public import TaskModel
/// `stepShown`: a step is on screen; everything the front end needs to draw it.
public struct StepShownEvent: Sendable, Hashable, ControlSchemaDescribing {
    /// The step's path, e.g. `WalkAndBalance/walk/walking`.
    public var stepPath: String
    /// The step's JSON as written, UI keys and unknown keys included.
    public var step: JSONValue
    /// The step's `type` as written.
    public var type: String
    /// `forward` or `backward`: how the step was reached.
    public var direction: String
    public var progress: StepProgress?
    /// The commands the front end may send now.
    public var allowedActions: [StepAction]
    /// The step timer's length in seconds, when the step has one.
    public var duration: Double?
    /// The result left behind when this step was shown before, for pre-filling answers.
    public var previousResult: JSONValue?
    /// The participant's cohorts as the step is shown (`run.start`'s, changed by survey rules), sorted.
    public var cohorts: [String]?
    /// True when going back has a step to return to (SageResearch's `hasStepBefore`; a custom
    /// navigator may refuse back).
    public var hasStepBefore: Bool?
    /// True when going forward shows another step rather than ending the task (SageResearch's
    /// `hasStepAfter`): false on the last step, a front end labels its button "Done".
    public var hasStepAfter: Bool?
    /// True when the daemon moves on by itself once the step's timer ends (countdown steps,
    /// `transitionAutomatically`, `continueOnFinish`): a front end shows no forward button for
    /// the timer and takes the next `stepShown` (docs/protocol.md).
    public var transitionsAutomatically: Bool?
    /// True when the daemon starts the step's timer itself as the step shows (once its
    /// permissions are answered): countdown steps, `startTimerAutomatically`,
    /// `transitionAutomatically`, `continueOnFinish`. False: a front end starts it with
    /// `timer.start` (or, as a tapping step, at the first tap). Protocol 1.2.0.
    public var startsTimerAutomatically: Bool?

    public init(stepPath: String, step: JSONValue, type: String, direction: String = "forward",
                progress: StepProgress? = nil, allowedActions: [StepAction], duration: Double? = nil,
                previousResult: JSONValue? = nil, cohorts: [String]? = nil, hasStepBefore: Bool? = nil, hasStepAfter: Bool? = nil,
                transitionsAutomatically: Bool? = nil, startsTimerAutomatically: Bool? = nil) {
        self.transitionsAutomatically = transitionsAutomatically
        self.startsTimerAutomatically = startsTimerAutomatically
        self.hasStepBefore = hasStepBefore
        self.hasStepAfter = hasStepAfter
        self.stepPath = stepPath
        self.step = step
        self.type = type
        self.direction = direction
        self.progress = progress
        self.allowedActions = allowedActions
        self.duration = duration
        self.previousResult = previousResult
        self.cohorts = cohorts
    }

    public static var schema: JSONSchema {
        .object([
            .init("stepPath", .string()),
            .init("step", .described("The step's JSON as written.", .map(.any))),
            .init("type", .string()),
            .init("direction", .string(enumeration: ["forward", "backward"])),
            .init("progress", .reference(to: StepProgress.self)),
            .init("allowedActions", .array(.reference(to: StepAction.self))),
            .init("duration", .number),
            .init("previousResult", .described("The step's result from before the person went back to it.", .map(.any))),
            .init("cohorts", .described("The participant's cohorts as the step is shown, sorted.", .array(.string()))),
            .init("hasStepBefore", .boolean),
            .init("hasStepAfter", .boolean),
            .init("transitionsAutomatically", .described("The daemon moves on by itself once the step's timer ends.", .boolean)),
            .init("startsTimerAutomatically", .described(
                "The daemon starts the step's timer itself as the step shows; false: the front end sends timer.start.", .boolean)),
        ], required: ["stepPath", "step", "type", "direction", "allowedActions"])
    }
}
