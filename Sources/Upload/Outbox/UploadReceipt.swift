/// The uploader's confirmation that the storage holds a run's archive:
/// `<data-dir>/uploads/<taskRunUUID>.uploaded.json`. The daemon's retention reads it
/// (docs/upload.md): a run without one is never deleted while uploads are configured.
public struct UploadReceipt: Codable, Sendable, Hashable {
    public var taskRunUUID: String
    public var key: String
    public var etag: String
    public var size: Int64
    /// ISO 8601, UTC.
    public var uploadedDate: String
}
