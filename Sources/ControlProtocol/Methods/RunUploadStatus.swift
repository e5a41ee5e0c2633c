/// A finished run's upload, in `runs.list` and `run.result` when uploads are configured
/// (docs/protocol.md, "Uploads"). Dates are ISO 8601 with milliseconds and offset, as in
/// taskResult.json.
public struct RunUploadStatus: Sendable, Hashable, ControlSchemaDescribing {
    public var state: RunUploadState
    /// The object's key in the study's storage and its ETag (`uploaded`).
    public var key: String?
    public var etag: String?
    public var uploadedDate: String?
    /// Failed attempts so far (from activetask-upload's queue).
    public var attempts: Int?
    /// The last failure's code (`SignatureDoesNotMatch`, `HTTP 503`, `curl 7`) and sentence.
    public var lastErrorCode: String?
    public var lastError: String?
    /// When activetask-upload tries next (after a retried failure, or when a hold ends).
    public var nextTry: String?

    public init(state: RunUploadState, key: String? = nil, etag: String? = nil, uploadedDate: String? = nil,
                attempts: Int? = nil, lastErrorCode: String? = nil, lastError: String? = nil, nextTry: String? = nil) {
        self.state = state
        self.key = key
        self.etag = etag
        self.uploadedDate = uploadedDate
        self.attempts = attempts
        self.lastErrorCode = lastErrorCode
        self.lastError = lastError
        self.nextTry = nextTry
    }

    public static var schema: JSONSchema {
        .object([
            .init("state", .reference(to: RunUploadState.self)),
            .init("key", .described("The object's key in the study's storage (uploaded).", .string())),
            .init("etag", .string()), .init("uploadedDate", .string()),
            .init("attempts", .described("Failed attempts so far.", .integer(minimum: 0))),
            .init("lastErrorCode", .string()), .init("lastError", .string()),
            .init("nextTry", .described("When the uploader tries next: after a retried failure, or when a hold ends.", .string())),
        ], required: ["state"])
    }
}
