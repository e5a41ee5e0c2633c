/// `run.status` (and the answer to every run command): the session's state and what the front
/// end needs to draw it, so that a front end that reconnects can pick up where it was.
public struct SessionStatus: Sendable, Hashable, ControlSchemaDescribing, ControlResult {
    public var state: ControlSessionState
    public var taskIdentifier: String?
    public var taskRunUUID: String?
    public var runDirectory: String?
    /// The step on screen, as its last `stepShown` event described it.
    public var step: StepShownEvent?
    /// The step timer, when the step has one.
    public var timer: TimerStatus?
    /// The permission request waiting for an answer.
    public var permissionRequest: PermissionRequestEvent?
    /// How the last run ended, once `state` is `finished` or `saved`.
    public var finishReason: RunState?
    /// The upload archive, once written.
    public var archive: String?
    /// The participant's cohorts now (`run.start`'s, changed by survey rules), sorted; absent
    /// without a run.
    public var cohorts: [String]?

    public init(state: ControlSessionState, taskIdentifier: String? = nil, taskRunUUID: String? = nil,
                runDirectory: String? = nil, step: StepShownEvent? = nil, timer: TimerStatus? = nil,
                permissionRequest: PermissionRequestEvent? = nil, finishReason: RunState? = nil, archive: String? = nil) {
        self.state = state
        self.taskIdentifier = taskIdentifier
        self.taskRunUUID = taskRunUUID
        self.runDirectory = runDirectory
        self.step = step
        self.timer = timer
        self.permissionRequest = permissionRequest
        self.finishReason = finishReason
        self.archive = archive
    }

    public static var schema: JSONSchema {
        .object([
            .init("state", .reference(to: ControlSessionState.self)),
            .init("taskIdentifier", .string()), .init("taskRunUUID", .string(format: "uuid")),
            .init("runDirectory", .string()),
            .init("step", .reference(to: StepShownEvent.self)),
            .init("timer", .reference(to: TimerStatus.self)),
            .init("permissionRequest", .reference(to: PermissionRequestEvent.self)),
            .init("finishReason", .reference(to: RunState.self)),
            .init("archive", .string()),
            .init("cohorts", .described("The participant's cohorts now, sorted.", .array(.string()))),
        ], required: ["state"])
    }
}

/// The step timer of the current step.
public struct TimerStatus: Sendable, Hashable, ControlSchemaDescribing {
    public var stepPath: String
    /// Seconds.
    public var duration: Double
    public var elapsed: Double
    public var running: Bool

    public init(stepPath: String, duration: Double, elapsed: Double, running: Bool) {
        self.stepPath = stepPath
        self.duration = duration
        self.elapsed = elapsed
        self.running = running
    }

    public static var schema: JSONSchema {
        .object([
            .init("stepPath", .string()), .init("duration", .number), .init("elapsed", .number),
            .init("running", .boolean),
        ], required: ["stepPath", "duration", "elapsed", "running"])
    }
}
