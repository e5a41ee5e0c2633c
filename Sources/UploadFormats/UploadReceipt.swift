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
    /// The object's SHA-256 checksum as the storage computed it (base64; a multipart object's is
    /// the composite of its parts', `…-<parts>`); nil when the storage gives none.
    public var checksumSHA256: String?
    /// The size of the run's archive the upload was made from (it differs from `size` when
    /// encrypted); the daemon deletes a run only when it equals the archive it recorded. Nil in
    /// receipts written before it was recorded.
    public var archiveSize: Int64?
    /// The SHA-256 of the run's archive the upload was made from (lowercase hex, as the outbox
    /// entry's `sha256`), computed by the uploader from the archive it read. `checksumSHA256` is
    /// the stored object's (a composite for multipart, the ciphertext's when encrypted), so this
    /// is what the daemon compares with the SHA-256 it recorded. Nil in older receipts.
    public var archiveSHA256: String?

    public init(taskRunUUID: String, key: String, etag: String, size: Int64, uploadedDate: String,
                checksumSHA256: String? = nil, archiveSize: Int64? = nil, archiveSHA256: String? = nil) {
        self.taskRunUUID = taskRunUUID
        self.key = key
        self.etag = etag
        self.size = size
        self.uploadedDate = uploadedDate
        self.checksumSHA256 = checksumSHA256
        self.archiveSize = archiveSize
        self.archiveSHA256 = archiveSHA256
    }

    /// The receipt's file name in `<data-dir>/uploads/`.
    public static func fileName(for taskRunUUID: UUID) -> String { "\(taskRunUUID.uuidString).uploaded.json" }
}
