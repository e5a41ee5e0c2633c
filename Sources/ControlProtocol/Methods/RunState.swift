/// The state of a run kept in the data directory: running, or how it finished (docs/runs.md's
/// finish reasons, documented in docs/protocol.md).
public enum RunState: String, Sendable, Hashable, Codable, CaseIterable {
    case running
    case completed
    case earlyExit
    case abandoned
    case saved
    case discarded
    case failed
    case interrupted
}

extension RunState: ControlSchemaDescribing {
    public static var schema: JSONSchema { .enumeration(Self.self) }
}
