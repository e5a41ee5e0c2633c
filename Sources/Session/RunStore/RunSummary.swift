public import Foundation

/// One run as `runs()` lists it.
public struct RunSummary: Sendable, Hashable {
    public var taskRunUUID: UUID
    public var directory: URL
    /// Nil when the manifest could not be read (see `problem`).
    public var taskIdentifier: String?
    public var status: RunStatus?
    public var finishReason: FinishReason?
    public var startDate: Date?
    public var endDate: Date?
    /// The archive, when it exists.
    public var archive: URL?
    public var collectedDate: Date?
    /// The archive's upload as the files say it (`RunUploadRecord.derive`); nil when uploads are
    /// not configured or the run is not finished.
    public var upload: RunUploadRecord?
    /// Why the run could not be read, as a sentence; nil for a readable run.
    public var problem: String?
}
