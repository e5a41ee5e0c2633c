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

    func range(ofPart number: Int) -> (offset: Int64, length: Int64) {
        let offset = Int64(number - 1) * partSize
        return (offset, min(partSize, size - offset))
    }
}
