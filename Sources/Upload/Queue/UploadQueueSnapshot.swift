public import Foundation

/// What the uploader's queue holds, as `<data-dir>/uploads/queue.json` (docs/upload.md, "The
/// queue on disk"): written atomically by `activetask-upload` whenever a run's state changes, read
/// by `activetaskctl uploads`. Times are ISO 8601 in UTC.
public struct UploadQueueSnapshot: Codable, Sendable, Hashable {
    /// One run of the queue.
    public struct Run: Codable, Sendable, Hashable {
        public var taskRunUUID: UUID
        public var taskIdentifier: String
        /// The archive's path relative to the data directory.
        public var archive: String
        /// The archive's size in bytes.
        public var size: Int64
        /// `waiting`, `uploading`, `held` or `uploaded`.
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

    /// The queue's records as they are at `now`.
    public init(records: some Sequence<UploadQueue.Record>, now: Date) {
        updated = AmzDate.iso8601(now)
        runs = records
            .sorted { OutboxEntry.queuedBefore($0.entry, $1.entry) }
            .map { Self.run($0) }
    }

    private static func run(_ record: UploadQueue.Record) -> Run {
        let (state, next): (String, Date?) = switch record.state {
        case .waiting(let notBefore): ("waiting", notBefore)
        case .uploading: ("uploading", nil)
        case .held(let until): ("held", until)
        case .uploaded: ("uploaded", nil)
        }
        return Run(taskRunUUID: record.entry.taskRunUUID, taskIdentifier: record.entry.taskIdentifier,
                   archive: record.entry.archive, size: record.entry.size, state: state, attempts: record.failures,
                   lastErrorCode: record.lastFailure?.code, lastError: record.lastFailure?.message,
                   nextTry: next.map(AmzDate.iso8601))
    }
}
