public import Foundation

/// What the uploader's queue holds, as `<data-dir>/uploads/queue.json` (docs/upload.md, "The
/// queue on disk"): written atomically by `activetask-upload` whenever a run's state changes, read
/// by `activetaskctl uploads` and by activetaskd for a run's upload state (docs/runs.md). Times are
/// ISO 8601 in UTC. Building one from the queue's records is the uploader's own
/// (`UploadQueueSnapshot+Records` in Upload).
public struct UploadQueueSnapshot: Codable, Sendable, Hashable {
    /// One run of the queue.
    public struct Run: Codable, Sendable, Hashable {
        public var taskRunUUID: UUID
        public var taskIdentifier: String
        /// The archive's path relative to the data directory.
        public var archive: String
        /// The archive's size in bytes.
        public var size: Int64
        /// `waiting`, `uploading`, `held` or `uploaded` (a string, so that a reader of an older
        /// build lists a state it does not know instead of failing on the whole file).
        public var state: String
        /// Failed attempts so far.
        public var attempts: Int
        /// The last failure's code (`SignatureDoesNotMatch`, `HTTP 503`, `curl 7`) and sentence.
        public var lastErrorCode: String?
        public var lastError: String?
        /// When the run is tried next (a retry or the end of a hold); nil when at once or never.
        public var nextTry: String?

        public init(taskRunUUID: UUID, taskIdentifier: String, archive: String, size: Int64, state: String,
                    attempts: Int, lastErrorCode: String? = nil, lastError: String? = nil, nextTry: String? = nil) {
            self.taskRunUUID = taskRunUUID
            self.taskIdentifier = taskIdentifier
            self.archive = archive
            self.size = size
            self.state = state
            self.attempts = attempts
            self.lastErrorCode = lastErrorCode
            self.lastError = lastError
            self.nextTry = nextTry
        }
    }

    /// When the snapshot was written.
    public var updated: String
    /// Oldest run first (by its end, as the queue uploads them).
    public var runs: [Run]

    public init(updated: String, runs: [Run]) {
        self.updated = updated
        self.runs = runs
    }

    /// The file name under `<data-dir>/uploads/`.
    public static let fileName = "queue.json"
}
