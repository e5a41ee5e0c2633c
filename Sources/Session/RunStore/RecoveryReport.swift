public import Foundation
public import SampleFiles

/// What recovery did to one run left unfinished by a crash or a stop.
public struct RecoveryReport: Sendable {
    public var taskRunUUID: UUID
    public var directory: URL
    /// Each recorder file (relative path) and what its repair did.
    public var repairs: [(file: String, outcome: SampleFileRepair.Outcome)]
    /// Files the manifest lists that could not be repaired or do not exist, with the reason.
    public var problems: [String]
    /// The archive written; nil when recovery failed (see `error`).
    public var archive: URL?
    /// Why the run could not be recovered; it is left as it was.
    public var error: RunStoreError?
    /// The recovered run's quality (`qc.json`); nil when it could not be checked (see `problems`).
    public var quality: (any RunQualityReport)?
}
