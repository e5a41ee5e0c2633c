extension UploadReceipt {
    /// The code a receipt that does not confirm its run's archive is listed with
    /// (`receiptMismatch` in the daemon's answers and `activetaskctl uploads`).
    public static let mismatchCode = "ReceiptMismatch"

    /// Why this receipt does not confirm the run's archive, as a sentence; nil when it does
    /// (docs/upload.md, "No receipt, no deletion"). It must name an ETag; the archive size it
    /// records (its `size` for a receipt of an unencrypted upload written before `archiveSize`
    /// existed) must equal the archive on disk (`archiveSize`, nil when unreadable) and the size
    /// the outbox entry recorded (`recordedSize`, when the entry is there); and its
    /// `archiveSHA256` must equal the one the daemon recorded (`recordedSHA256`) when both exist:
    /// a receipt from an uploader that records none is judged by size alone.
    public func disagreement(archiveSize onDisk: Int64?, recordedSize: Int64?, recordedSHA256: String?) -> String? {
        guard !etag.isEmpty else { return "The upload receipt names no ETag." }
        guard let onDisk else { return "The run's archive cannot be read." }
        guard let uploaded = archiveSize ?? (key.hasSuffix(".p7m") ? nil : size) else {
            return "The upload receipt records no archive size (an encrypted upload's receipt from an older uploader)."
        }
        guard uploaded == onDisk else {
            return "The upload receipt is for an archive of \(uploaded) bytes; the run's archive has \(onDisk)."
        }
        if let recordedSize, recordedSize != onDisk {
            return "The outbox entry recorded an archive of \(recordedSize) bytes; the run's archive has \(onDisk)."
        }
        if let uploadedSHA256 = archiveSHA256, let recordedSHA256, uploadedSHA256.lowercased() != recordedSHA256.lowercased() {
            return "The upload receipt is for an archive with SHA-256 \(uploadedSHA256); the run recorded \(recordedSHA256)."
        }
        return nil
    }
}
