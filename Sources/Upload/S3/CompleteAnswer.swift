/// What the body of a `200` answer to CompleteMultipartUpload says (docs/upload.md, "Integrity,
/// multipart and resuming"). S3 sends the status line at once and the body only when the
/// object is assembled, so a `200` means nothing by itself: only a whole
/// `CompleteMultipartUploadResult` document counts (moto 5.2's `CompleteMultipartUploadResponse`
/// too). An `<Error>` document is S3's failure; an
/// empty, whitespace-only, truncated or otherwise unparsable body is a cut connection.
enum CompleteAnswer: Sendable, Hashable {
    /// The object was assembled: its ETag and, when the store computed one, its composite
    /// SHA-256 checksum.
    case completed(etag: String, checksumSHA256: String?)
    /// S3's `<Error>` document.
    case error(code: String, message: String?)
    /// Not a complete document (the reason, for the log).
    case unreadable(String)

    /// Parses `body` with Foundation's XMLParser (`S3XMLElement`; well-formedness included: a
    /// truncated document fails).
    static func parse(_ body: [UInt8]) -> CompleteAnswer {
        let (root, reason) = S3XMLElement.parse(body)
        guard let root else { return .unreadable(reason) }
        switch root.name {
        // AWS's root element; moto 5.2 names it CompleteMultipartUploadResponse (boto3 reads
        // either), and a store that assembled the object says so in either.
        case "CompleteMultipartUploadResult", "CompleteMultipartUploadResponse":
            guard let etag = root.value("ETag"), !etag.isEmpty else {
                return .unreadable("CompleteMultipartUploadResult names no ETag")
            }
            let checksum = root.value("ChecksumSHA256").flatMap { $0.isEmpty ? nil : $0 }
            return .completed(etag: etag, checksumSHA256: checksum)
        case "Error":
            guard let code = root.value("Code"), !code.isEmpty else { return .unreadable("an Error document without a Code") }
            return .error(code: code, message: root.value("Message"))
        default:
            return .unreadable("the document is \(root.name), not CompleteMultipartUploadResult")
        }
    }
}
