/// Where a run stands, as its manifest records it.
public enum RunStatus: String, Codable, Sendable, Hashable {
    /// The session is running it (or was, when the daemon died: recovery finishes it).
    case running
    /// Cancelled with save: kept as it was, to be resumed.
    case saved
    /// Finished: results and archive written; never changed again except by retention.
    case final
}
