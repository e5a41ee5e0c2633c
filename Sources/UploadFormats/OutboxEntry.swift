public import Foundation

/// One finished run waiting to be uploaded: `<data-dir>/outbox/<taskRunUUID>.json`, written
/// atomically by activetaskd when the run ends (docs/upload.md, "The outbox") and read by
/// activetask-upload. Both sides use this one definition (the `UploadFormats` module).
public struct OutboxEntry: Codable, Sendable, Hashable {
    public var taskRunUUID: UUID
    public var taskIdentifier: String
    /// The archive's path relative to the data directory (`runs/<uuid>/<uuid>.zip`).
    public var archive: String
    /// The archive's size in bytes when the run finished.
    public var size: Int64
    /// The archive's SHA-256, lowercase hex (as `sha256sum` prints it), as the daemon computed it
    /// when it wrote the archive; nil in entries written before it was recorded.
    public var sha256: String?
    /// `completed`, `earlyExit`, `abandoned`, `failed` or `interrupted`.
    public var finishReason: String
    /// When the run ended, ISO 8601 in UTC (`2026-11-25T21:30:00Z`).
    public var endDate: String

    public init(taskRunUUID: UUID, taskIdentifier: String, archive: String, size: Int64, sha256: String? = nil,
                finishReason: String, endDate: String) {
        self.taskRunUUID = taskRunUUID
        self.taskIdentifier = taskIdentifier
        self.archive = archive
        self.size = size
        self.sha256 = sha256
        self.finishReason = finishReason
        self.endDate = endDate
    }

    /// The entry's file name in the outbox directory.
    public static func fileName(for taskRunUUID: UUID) -> String { "\(taskRunUUID.uuidString).json" }
}
