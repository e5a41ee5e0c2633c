/// Where a session is (issue 9): loaded and not started, showing steps, waiting for the front
/// end to answer a permission request, with the step timer paused, finished for a reason, or
/// saved for a later resume.
public enum SessionState: Sendable, Hashable, CustomStringConvertible {
    case loaded
    case running
    case waitingForPermission
    case paused
    case finished(FinishReason)
    case saved

    /// True once the session accepts no command that moves the task.
    public var isOver: Bool {
        switch self {
        case .finished, .saved: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .loaded: "loaded"
        case .running: "running"
        case .waitingForPermission: "waitingForPermission"
        case .paused: "paused"
        case .finished(let reason): "finished (\(reason.rawValue))"
        case .saved: "saved"
        }
    }
}

