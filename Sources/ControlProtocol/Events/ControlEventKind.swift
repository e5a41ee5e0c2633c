/// The kinds of `event` notification (`params.kind`).
public enum ControlEventKind: String, Sendable, Hashable, Codable, CaseIterable {
    case stepShown
    case timerStarted
    case timerTick
    case timerPaused
    case timerResumed
    case timerFinished
    case actionStatus
    case actionFailed
    case warning
    case permissionRequest
    case permissionAnswered
    case promptSpoken
    case stepCommand
    case audioLevel
    case motionProgress
    case taskFinished
    case eventsLost
}

extension ControlEventKind: ControlSchemaDescribing {
    public static var schema: JSONSchema { .enumeration(Self.self) }
}
