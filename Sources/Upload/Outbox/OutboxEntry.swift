public import Foundation

/// One finished run waiting to be uploaded: `<data-dir>/outbox/<taskRunUUID>.json`, written
/// atomically by activetaskd when the run ends (docs/upload.md, "The outbox"). The daemon writes
/// the same fields from its own type; this is the reader's side of that file format.
public struct OutboxEntry: Codable, Sendable, Hashable {
    public var taskRunUUID: UUID
    public var taskIdentifier: String
    /// The archive's path relative to the data directory (`runs/<uuid>/<uuid>.zip`).
    public var archive: String
    /// The archive's size in bytes when the run finished.
    public var size: Int64
    /// `completed`, `earlyExit`, `abandoned`, `failed` or `interrupted`.
    public var finishReason: String
    /// When the run ended, ISO 8601 in UTC (`2026-11-25T21:30:00Z`).
    public var endDate: String

    public init(taskRunUUID: UUID, taskIdentifier: String, archive: String, size: Int64, finishReason: String, endDate: String) {
        self.taskRunUUID = taskRunUUID
        self.taskIdentifier = taskIdentifier
        self.archive = archive
        self.size = size
        self.finishReason = finishReason
        self.endDate = endDate
    }

    /// The run's end day, `yyyy-MM-dd`, for the `{date}` of the key template.
    public var endDay: String { String(endDate.prefix(10)) }

    /// The queue's order: the run that ended first goes first (the UUID breaks ties), as the
    /// uploader uploads and `activetaskctl uploads` lists them.
    public static func queuedBefore(_ first: OutboxEntry, _ second: OutboxEntry) -> Bool {
        (first.endDate, first.taskRunUUID.uuidString) < (second.endDate, second.taskRunUUID.uuidString)
    }
}
