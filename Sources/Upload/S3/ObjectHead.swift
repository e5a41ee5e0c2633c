/// What a HEAD of an object says about it: the storage's own size, ETag and, when it computed
/// one and was asked (`x-amz-checksum-mode: ENABLED`), its SHA-256 checksum (base64; for a
/// multipart object the composite of the parts' checksums, S3 adding `-<parts>`).
public struct ObjectHead: Sendable, Hashable {
    public var size: Int64
    public var etag: String
    public var checksumSHA256: String?

    /// A HEAD's outcome as S3 means it (docs/upload.md, "Integrity, multipart and resuming").
    public enum Answer: Sendable, Hashable {
        case found(ObjectHead)
        /// 404, or 403 (a key without `s3:GetObject` may not learn whether the object exists):
        /// for the uploader both mean "not there".
        case notThere(status: Int)
    }

    /// The checksum without S3's `-<parts>` suffix of a composite one.
    public var checksumValue: String? {
        guard let checksumSHA256 else { return nil }
        if let dash = checksumSHA256.lastIndex(of: "-"), checksumSHA256[checksumSHA256.index(after: dash)...].allSatisfy(\.isNumber) {
            return String(checksumSHA256[..<dash])
        }
        return checksumSHA256
    }
}
