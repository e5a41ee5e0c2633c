/// What an uploader has done since it started: archives and bytes uploaded, failed attempts
/// by error code (`activetask_uploaded_*_total`, `activetask_upload_failures_total`).
public struct UploadTotals: Sendable, Hashable {
    public var objects: Int = 0
    public var bytes: Int64 = 0
    public var failures: [String: Int] = [:]

    public init() {}

    /// Counts an upload's outcome; `size` is the archive's.
    public mutating func count(_ event: UploadQueue.Event, size: Int64?) {
        switch event {
        case .succeeded:
            objects += 1
            bytes += size ?? 0
        case .failed(_, let failure, _, _):
            failures[failure.code, default: 0] += 1
        default:
            break
        }
    }
}
