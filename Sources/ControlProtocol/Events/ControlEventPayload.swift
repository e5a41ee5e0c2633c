/// What an event says, by kind.
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
    /// A step's `playSound*` or `vibrate*` command (vibrating is the front end's job).
    case stepCommand(StepCommandEvent)
    case audioLevel(AudioLevelEvent)
    case motionProgress(MotionProgressEvent)
    case taskFinished(TaskFinishedEvent)
    case eventsLost(EventsLostEvent)

    public var kind: ControlEventKind {
        switch self {
        case .stepShown: .stepShown
        case .timerStarted: .timerStarted
        case .timerTick: .timerTick
        case .timerPaused: .timerPaused
        case .timerResumed: .timerResumed
        case .timerFinished: .timerFinished
        case .actionStatus: .actionStatus
        case .actionFailed: .actionFailed
        case .warning: .warning
        case .permissionRequest: .permissionRequest
        case .permissionAnswered: .permissionAnswered
        case .promptSpoken: .promptSpoken
        case .stepCommand: .stepCommand
        case .audioLevel: .audioLevel
        case .motionProgress: .motionProgress
        case .taskFinished: .taskFinished
        case .eventsLost: .eventsLost
        }
    }

    /// The payload type of each kind, for the OpenRPC document.
    public static func payloadType(of kind: ControlEventKind) -> any ControlSchemaDescribing.Type {
        switch kind {
        case .stepShown: StepShownEvent.self
        case .timerStarted, .timerTick, .timerPaused, .timerResumed, .timerFinished: StepTimerEvent.self
        case .actionStatus: ActionStatusEvent.self
        case .actionFailed: ActionFailedEvent.self
        case .warning: WarningEvent.self
        case .permissionRequest: PermissionRequestEvent.self
        case .permissionAnswered: PermissionAnsweredEvent.self
        case .promptSpoken: PromptSpokenEvent.self
        case .stepCommand: StepCommandEvent.self
        case .audioLevel: AudioLevelEvent.self
        case .motionProgress: MotionProgressEvent.self
        case .taskFinished: TaskFinishedEvent.self
        case .eventsLost: EventsLostEvent.self
        }
    }

    init(kind: ControlEventKind, from decoder: any Decoder) throws {
        switch kind {
        case .stepShown: self = .stepShown(try StepShownEvent(from: decoder))
        case .timerStarted: self = .timerStarted(try StepTimerEvent(from: decoder))
        case .timerTick: self = .timerTick(try StepTimerEvent(from: decoder))
        case .timerPaused: self = .timerPaused(try StepTimerEvent(from: decoder))
        case .timerResumed: self = .timerResumed(try StepTimerEvent(from: decoder))
        case .timerFinished: self = .timerFinished(try StepTimerEvent(from: decoder))
        case .actionStatus: self = .actionStatus(try ActionStatusEvent(from: decoder))
        case .actionFailed: self = .actionFailed(try ActionFailedEvent(from: decoder))
        case .warning: self = .warning(try WarningEvent(from: decoder))
        case .permissionRequest: self = .permissionRequest(try PermissionRequestEvent(from: decoder))
        case .permissionAnswered: self = .permissionAnswered(try PermissionAnsweredEvent(from: decoder))
        case .promptSpoken: self = .promptSpoken(try PromptSpokenEvent(from: decoder))
        case .stepCommand: self = .stepCommand(try StepCommandEvent(from: decoder))
        case .audioLevel: self = .audioLevel(try AudioLevelEvent(from: decoder))
        case .motionProgress: self = .motionProgress(try MotionProgressEvent(from: decoder))
        case .taskFinished: self = .taskFinished(try TaskFinishedEvent(from: decoder))
        case .eventsLost: self = .eventsLost(try EventsLostEvent(from: decoder))
        }
    }

    /// Encodes the payload's members into the event's own object.
    func encodeMembers(to encoder: any Encoder) throws {
        switch self {
        case .stepShown(let value): try value.encode(to: encoder)
        case .timerStarted(let value), .timerTick(let value), .timerPaused(let value),
             .timerResumed(let value), .timerFinished(let value):
            try value.encode(to: encoder)
        case .actionStatus(let value): try value.encode(to: encoder)
        case .actionFailed(let value): try value.encode(to: encoder)
        case .warning(let value): try value.encode(to: encoder)
        case .permissionRequest(let value): try value.encode(to: encoder)
        case .permissionAnswered(let value): try value.encode(to: encoder)
        case .promptSpoken(let value): try value.encode(to: encoder)
        case .stepCommand(let value): try value.encode(to: encoder)
        case .audioLevel(let value): try value.encode(to: encoder)
        case .motionProgress(let value): try value.encode(to: encoder)
        case .taskFinished(let value): try value.encode(to: encoder)
        case .eventsLost(let value): try value.encode(to: encoder)
        }
    }
}
