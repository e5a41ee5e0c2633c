/// A multipart upload under way: `<data-dir>/uploads/<taskRunUUID>.multipart.json`, rewritten
/// atomically after every part, so a kill or a reboot resumes at the next part with the same
/// UploadId (ListParts reconciles what the storage really holds).
struct MultipartProgress: Codable, Sendable, Hashable {
    var key: String
    var uploadID: String
    var size: Int64
    var partSize: Int64
    var parts: [S3Client.Part]

    var partCount: Int { Int((size + partSize - 1) / partSize) }

    /// S3's limits on one multipart upload: at most 10 000 parts of at most 5 GiB each.
    static let maximumPartCount: Int64 = 10_000
    static let maximumPartSize: Int64 = 5 << 30

    /// The part size for an archive of `size` bytes: the configured one, or, where that would
    /// need more than 10 000 parts (80 GB at 8 MiB), the smallest whole number of MiB that fits
    /// in 10 000 parts; nil when the archive is beyond S3's largest object (10 000 parts of
    /// 5 GiB).
    static func partSize(forArchiveOf size: Int64, preferred: Int64) -> Int64? {
        let (capacity, overflow) = preferred.multipliedReportingOverflow(by: maximumPartCount)
        if overflow || size <= capacity { return preferred }
        let mebibyte: Int64 = 1 << 20
        let perPart = (size / maximumPartCount) + (size % maximumPartCount == 0 ? 0 : 1)
        let rounded = ((perPart + mebibyte - 1) / mebibyte) * mebibyte
        return rounded <= maximumPartSize ? max(rounded, preferred) : nil
    }

    /// The bytes of the parts the storage has confirmed.
    var confirmedBytes: Int64 { parts.reduce(0) { $0 + range(ofPart: $1.number).length } }

    func range(ofPart number: Int) -> (offset: Int64, length: Int64) {
        let offset = Int64(number - 1) * partSize
        return (offset, min(partSize, size - offset))
    }
}
