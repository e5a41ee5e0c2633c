public import Foundation

/// Where a finished run's archive is on its way to the study's storage (docs/runs.md, "Uploads";
/// docs/upload.md). The manifest keeps the durable part (`queued` when the run is meant for the
/// outbox, `uploaded` with the object's key and ETag once activetask-upload's receipt is seen);
/// `RunStore.runs()` fills in the uploader's live state (`waiting`, `uploading`, `held`) from its
/// queue file, which the daemon only reads.
public struct RunUploadRecord: Codable, Sendable, Hashable {
    /// The step of the upload.
    public enum State: String, Codable, Sendable, Hashable, CaseIterable {
        /// In the outbox; activetask-upload has not reported it yet.
        case queued
        /// Waiting for its turn, or for `nextTry` after a failure that is retried.
        case waiting
        case uploading
        /// Stopped by a failure that needs a person (`lastError`), until `nextTry` or a reload.
        case held
        /// The storage holds the archive: a receipt that confirms the archive the run recorded.
        case uploaded
        /// activetask-upload wrote a receipt that does not confirm the run's archive (another
        /// size or SHA-256, or unreadable); `lastError` says why. Retention keeps the run.
        case receiptMismatch
    }

    public var state: State
    /// The object's key and ETag, from the receipt (`uploaded`, `receiptMismatch`).
    public var key: String?
    public var etag: String?
    public var uploadedDate: Date?
    /// Failed attempts so far, the last failure's code and sentence, and when the uploader tries
    /// next (from its queue; never in the manifest).
    public var attempts: Int?
    public var lastErrorCode: String?
    public var lastError: String?
    public var nextTry: Date?

    public init(state: State, key: String? = nil, etag: String? = nil, uploadedDate: Date? = nil, attempts: Int? = nil,
                lastErrorCode: String? = nil, lastError: String? = nil, nextTry: Date? = nil) {
        self.state = state
        self.key = key
        self.etag = etag
        self.uploadedDate = uploadedDate
        self.attempts = attempts
        self.lastErrorCode = lastErrorCode
        self.lastError = lastError
        self.nextTry = nextTry
    }
}
