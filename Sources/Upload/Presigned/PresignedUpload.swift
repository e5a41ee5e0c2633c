public import Foundation

/// One upload through a study server that hands out presigned URLs (docs/upload.md, "The study
/// server's contract"), as a plain state machine: events in, the next action out, no I/O.
/// `ArchiveUploader` carries the actions out and feeds their outcomes back.
///
/// Ask for a URL; PUT the archive to it; tell the server it is complete. A URL that has expired
/// (its `expires` is past, or the storage answers the PUT with 403) is replaced by a new one, up
/// to `maximumURLs` in all; any other failure ends the attempt with that failure, which the
/// queue sorts as it sorts every other (retried or held).
public struct PresignedUpload: Sendable, Hashable {
    public enum Event: Sendable, Hashable {
        case started
        case granted(UploadGrant, now: Date)
        case requestFailed(UploadFailure)
        /// The PUT succeeded; the storage's ETag matched the MD5 sent.
        case stored(etag: String)
        case putFailed(UploadFailure)
        case completed
        case completeFailed(UploadFailure)
    }

    public enum Action: Sendable, Hashable {
        /// POST the upload request to the study server.
        case requestURL
        /// PUT the archive to the grant's URL.
        case put(UploadGrant)
        /// POST `<server>/<id>/complete`.
        case complete(id: String)
        /// The storage holds the archive and the server knows.
        case finished(etag: String)
        case failed(UploadFailure)
    }

    /// URLs asked for in one attempt, the first included.
    public static let maximumURLs = 3
    /// A URL that expires sooner than this is not used: the PUT could outlast it.
    public var expiryMarginSeconds: Double = 30

    public private(set) var urlsRequested = 0
    public private(set) var grant: UploadGrant?
    public private(set) var etag: String?

    public init() {}

    public mutating func handle(_ event: Event) -> Action {
        switch event {
        case .started:
            return requestURL()
        case .granted(let grant, let now):
            self.grant = grant
            guard grant.expires.timeIntervalSince(now) > expiryMarginSeconds else {
                return urlsRequested < Self.maximumURLs ? requestURL() : .failed(UploadFailure(
                    kind: .held, code: "URLExpired",
                    message: "The study server handed out \(urlsRequested) upload URLs that had expired or were about to (the last expires \(AmzDate.iso8601(grant.expires))); check the device's clock (systemd-timesyncd) and the server's URL lifetime, then reload activetask-upload."))
            }
            return .put(grant)
        case .requestFailed(let failure), .completeFailed(let failure):
            return .failed(failure)
        case .putFailed(let failure):
            // S3 answers an expired presigned URL with 403 (AccessDenied, "Request has expired").
            guard failure.httpStatus == 403 else { return .failed(failure) }
            return urlsRequested < Self.maximumURLs ? requestURL() : .failed(UploadFailure(
                kind: .held, code: failure.code,
                message: "The storage refused \(urlsRequested) presigned URLs from the study server in a row (\(failure.message)); the server signs URLs the storage does not accept: check its keys and clock, and the device's clock, then reload activetask-upload.",
                httpStatus: failure.httpStatus))
        case .stored(let etag):
            self.etag = etag
            guard let grant else { return .failed(UploadFailure(kind: .transient, code: "NoGrant", message: "An upload was stored without a grant; it is tried again.")) }
            return .complete(id: grant.id)
        case .completed:
            return .finished(etag: etag ?? "")
        }
    }

    private mutating func requestURL() -> Action {
        urlsRequested += 1
        return .requestURL
    }
}
