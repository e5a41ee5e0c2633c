/// Where the daemon's one session is: what `run.status` reports and what decides which commands fit.
public enum ControlSessionState: String, Sendable, Hashable, Codable, CaseIterable {
    /// No task loaded.
    case idle
    /// A task is loaded and not started.
    case loaded
    /// A run is running.
    case running
    /// A run waits for the front end to answer a permission request.
    case waitingForPermission
    /// The step timer is paused.
    case paused
    /// The last run ended (its finish reason is in `SessionStatus.finishReason`).
    case finished
    /// The last run was cancelled with save and can be resumed.
    case saved
}

extension ControlSessionState: ControlSchemaDescribing {
    public static var schema: JSONSchema { .enumeration(Self.self) }
}
