/// What an event says, by kind: one case per `ControlEventKind` declaration.
public enum ControlEventPayload: Sendable, Hashable {
    case stepShown(StepShownEvent)
    case timerStarted(StepTimerEvent)
    /// Once a second while the timer runs.
    case timerTick(StepTimerEvent)
    case timerPaused(StepTimerEvent)
    case timerResumed(StepTimerEvent)
    case timerFinished(StepTimerEvent)
    case actionStatus(ActionStatusEvent)
    case actionFailed(ActionFailedEvent)
    case warning(WarningEvent)
    case permissionRequest(PermissionRequestEvent)
    case permissionAnswered(PermissionAnsweredEvent)
    case promptSpoken(PromptSpokenEvent)
    case promptFinished(PromptFinishedEvent)
    /// A step's `playSound*` or `vibrate*` command (vibrating is the front end's job).
    case stepCommand(StepCommandEvent)
    case audioLevel(AudioLevelEvent)
    case motionProgress(MotionProgressEvent)
    case taskResultReady(TaskResultReadyEvent)
    case taskFinished(TaskFinishedEvent)
    case eventsLost(EventsLostEvent)

    public var kind: ControlEventKind { parts.kind }

    /// The run named by the payload's own members (`taskFinished`, `taskResultReady`), if any.
    public var taskRunUUID: String? {
        switch self {
        case .taskFinished(let value): value.taskRunUUID
        case .taskResultReady(let value): value.taskRunUUID
        default: nil
        }
    }

    /// The kind and the members, for the wire.
    private var parts: (kind: ControlEventKind, members: any Encodable) {
        switch self {
        case .stepShown(let value): (.stepShown, value)
        case .timerStarted(let value): (.timerStarted, value)
        case .timerTick(let value): (.timerTick, value)
        case .timerPaused(let value): (.timerPaused, value)
        case .timerResumed(let value): (.timerResumed, value)
        case .timerFinished(let value): (.timerFinished, value)
        case .actionStatus(let value): (.actionStatus, value)
        case .actionFailed(let value): (.actionFailed, value)
        case .warning(let value): (.warning, value)
        case .permissionRequest(let value): (.permissionRequest, value)
        case .permissionAnswered(let value): (.permissionAnswered, value)
        case .promptSpoken(let value): (.promptSpoken, value)
        case .promptFinished(let value): (.promptFinished, value)
        case .stepCommand(let value): (.stepCommand, value)
        case .audioLevel(let value): (.audioLevel, value)
        case .motionProgress(let value): (.motionProgress, value)
        case .taskResultReady(let value): (.taskResultReady, value)
        case .taskFinished(let value): (.taskFinished, value)
        case .eventsLost(let value): (.eventsLost, value)
        }
    }

    /// Reads the members of an event of `kind` (its declaration says which case they make).
    init(kind: ControlEventKind, from decoder: any Decoder) throws {
        self = try kind.payload(from: decoder)
    }

    /// Encodes the payload's members into the event's own object.
    func encodeMembers(to encoder: any Encoder) throws {
        try parts.members.encode(to: encoder)
    }
}
