public import Foundation

/// The uploader's confirmation that the storage holds a run's archive:
/// `<data-dir>/uploads/<taskRunUUID>.uploaded.json`, written by activetask-upload. The daemon
/// reads it (docs/upload.md): retention removes no run without one while uploads are configured,
/// and the run's manifest, `runs.list` and `run.result` then say `uploaded` with its key and ETag.
public struct UploadReceipt: Codable, Sendable, Hashable {
    public var taskRunUUID: String
    /// The object's key in the study's storage.
    public var key: String
    public var etag: String
    /// The bytes uploaded (the encrypted copy's size when encrypted).
    public var size: Int64
    /// ISO 8601, UTC.
    public var uploadedDate: String

    public init(taskRunUUID: String, key: String, etag: String, size: Int64, uploadedDate: String) {
        self.taskRunUUID = taskRunUUID
        self.key = key
        self.etag = etag
        self.size = size
        self.uploadedDate = uploadedDate
    }

    /// The receipt's file name in `<data-dir>/uploads/`.
    public static func fileName(for taskRunUUID: UUID) -> String { "\(taskRunUUID.uuidString).uploaded.json" }
}
