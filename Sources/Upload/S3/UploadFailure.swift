/// Why an upload attempt failed, sorted as a storage operator expects: transient failures are
/// retried with backoff, held ones wait for a configuration reload or a long pause.
public struct UploadFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// 5xx, time-outs, resets, an unreachable network: try again after a backoff.
        case transient
        /// S3's `SlowDown` (or 429/503 with the code): back off harder.
        case slowDown
        /// Bad credentials, a missing bucket, a refused request, an unreadable archive: retrying
        /// soon cannot help.
        case held
    }

    public var kind: Kind
    /// S3's error code (`SignatureDoesNotMatch`), `HTTP 500`, or the local cause (`curl 7`).
    public var code: String
    /// The full explanation, with what to do.
    public var message: String
    /// The server's `Retry-After`, in seconds.
    public var retryAfterSeconds: Double?
    /// The HTTP status of the answer that failed; nil when none arrived (or the cause is local).
    public var httpStatus: Int?
    /// The answer's `Date` header (for `RequestTimeTooSkewed`: the storage's clock).
    public var serverDate: String?

    public init(kind: Kind, code: String, message: String, retryAfterSeconds: Double? = nil, httpStatus: Int? = nil) {
        self.kind = kind
        self.code = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
        self.httpStatus = httpStatus
    }

    public var description: String { "\(code): \(message)" }

    /// Held S3 codes whose meaning is a configuration problem, with the advice to give.
    static let heldAdvice: [String: String] = [
        "SignatureDoesNotMatch": "check s3.secretAccessKeyFile (or the s3-secret-access-key credential) and s3.region",
        "InvalidAccessKeyId": "check s3.accessKeyID",
        "AccessDenied": "check the bucket policy: the key needs s3:PutObject and the multipart actions on the prefix (docs/upload.md)",
        "NoSuchBucket": "check s3.bucket and s3.endpoint",
        "AuthorizationHeaderMalformed": "check s3.region",
        "InvalidBucketName": "check s3.bucket",
        "RequestTimeTooSkewed": "set the device's clock (systemd-timesyncd)",
    ]

    /// Sorts an HTTP error response: its status, S3's error code and message (when the body had
    /// them) and the `Retry-After` header.
    public static func classify(status: Int, code: String?, message: String?, retryAfter: String?) -> UploadFailure {
        var failure = sorted(status: status, code: code, message: message, retryAfter: retryAfter)
        failure.httpStatus = status
        return failure
    }

    private static func sorted(status: Int, code: String?, message: String?, retryAfter: String?) -> UploadFailure {
        let retryAfterSeconds = retryAfter.flatMap { Double($0.trimming(" ")) }.map { max(0, $0) }
        let code = code ?? "HTTP \(status)"
        let text = message.map { "\($0) (HTTP \(status))" } ?? "the storage answered HTTP \(status)"
        if code == "SlowDown" || status == 429 {
            return UploadFailure(kind: .slowDown, code: code, message: "\(text); the storage asks to slow down, so the upload waits longer.", retryAfterSeconds: retryAfterSeconds)
        }
        if status >= 500 || status == 408 || ["RequestTimeout", "InternalError", "ServiceUnavailable"].contains(code) {
            return UploadFailure(kind: .transient, code: code, message: "\(text); it is tried again later.", retryAfterSeconds: retryAfterSeconds)
        }
        let advice = heldAdvice[code] ?? "check the upload configuration and the bucket"
        return UploadFailure(kind: .held, code: code, message: "\(text): \(advice), then reload activetask-upload (systemctl reload activetask-upload).", retryAfterSeconds: retryAfterSeconds)
    }

    static func transfer(_ error: CurlError) -> UploadFailure {
        UploadFailure(kind: error.isTransient ? .transient : .held, code: "curl \(error.code)", message: error.description)
    }

    static func local(_ code: String, _ message: String) -> UploadFailure {
        UploadFailure(kind: .held, code: code, message: message)
    }
}
