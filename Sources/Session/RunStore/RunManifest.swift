public import Foundation
public import TaskModel

/// The run's own record, `run.json` in the run directory, rewritten atomically at every step
/// change so that a crash leaves the last complete state (docs/runs.md). Recovery reads it to
/// know which files to repair and where their results belong; resume reads it to restore the
/// run.
public struct RunManifest: Codable, Sendable {
    /// One async action's controller and the files it writes.
    public struct Controller: Codable, Sendable, Hashable {
        /// The configuration's identifier (`motion`).
        public var identifier: String
        /// The path of the task or section that declared it (`WalkAndBalance/walk`).
        public var owner: String
        /// The lifecycle status as `AsyncActionStatus` writes it (`running`, `finished`, …).
        public var status: String
        public var files: [File]

        public init(identifier: String, owner: String, status: String, files: [File] = []) {
            self.identifier = identifier
            self.owner = owner
            self.status = status
            self.files = files
        }
    }

    /// A file a controller writes: enough to repair it and give it a file result after a crash.
    public struct File: Codable, Sendable, Hashable {
        /// The identifier its file result takes (`motion`, `roomSound_levels`).
        public var identifier: String
        /// Relative to the run directory.
        public var relativePath: String
        /// `application/json` (a JSON array), `text/csv` or `audio/wav`.
        public var contentType: String
        public var startDate: Date
        /// CLOCK_BOOTTIME seconds when the recording started.
        public var startUptime: Double?
        /// True once the controller closed the file and its result is in `results`.
        public var isFinished: Bool

        public init(identifier: String, relativePath: String, contentType: String, startDate: Date,
                    startUptime: Double? = nil, isFinished: Bool = false) {
            self.identifier = identifier
            self.relativePath = relativePath
            self.contentType = contentType
            self.startDate = startDate
            self.startUptime = startUptime
            self.isFinished = isFinished
        }
    }

    /// A spoken prompt: `{stepPath, text, scheduledUptime, spokenUptime, heardBy, endUptime}`
    /// (CLOCK_BOOTTIME seconds), the shape of `prompts.json` (docs/runs.md). `spokenUptime` is
    /// when it was heard by the best measure the device gave and `heardBy` how that was measured
    /// (docs/audio.md, "Voice prompts"); `endUptime` is set once it has finished. The last two
    /// are absent in runs recorded before they existed.
    public struct Prompt: Codable, Sendable, Hashable {
        public var stepPath: String
        public var text: String
        public var scheduledUptime: Double
        public var spokenUptime: Double?
        public var heardBy: String?
        public var endUptime: Double?

        public init(stepPath: String, text: String, scheduledUptime: Double, spokenUptime: Double? = nil,
                    heardBy: String? = nil, endUptime: Double? = nil) {
            self.stepPath = stepPath
            self.text = text
            self.scheduledUptime = scheduledUptime
            self.spokenUptime = spokenUptime
            self.heardBy = heardBy
            self.endUptime = endUptime
        }
    }

    /// The manifest's own format; readers refuse newer formats with a clear error.
    public static let currentFormat = 1

    public var format: Int
    public var taskRunUUID: UUID
    public var taskIdentifier: String
    public var status: RunStatus
    /// Set when the run ended or was saved.
    public var finishReason: FinishReason?
    public var startDate: Date
    /// When the manifest was last written.
    public var updatedDate: Date
    /// The step being shown (`WalkAndBalance/walk/motion`); nil before the first step and after the end.
    public var currentStepPath: String?
    /// Every step path shown, in order, backward moves included.
    public var history: [String]
    /// The task result so far (`taskResult.json` once the run ends).
    public var results: TaskResult
    public var controllers: [Controller]
    public var prompts: [Prompt]
    /// The archive's file name once it was written (`<taskRunUUID>.zip`).
    public var archive: String?
    /// The archive's SHA-256 (lowercase hex, as `sha256sum` prints it), computed when it was
    /// written; retention deletes the run only on a receipt for these bytes (docs/upload.md).
    /// Nil in manifests written before it was recorded.
    public var archiveSHA256: String?
    /// When an uploader confirmed it collected the archive (`RunStore.markCollected`).
    public var collectedDate: Date?
    /// What recovery or retention did to the run, one sentence each.
    public var notes: [String]
    /// The participant's cohorts as the manifest was written (`run.start`'s, changed by survey
    /// rules), sorted; a resumed run goes on with them. Nil in manifests written before them.
    public var cohorts: [String]?
    /// False when the run shows abbreviated instructions (`run.start`'s `fullInstructions`).
    public var fullInstructions: Bool?
    /// The archive's upload (docs/runs.md, "Uploads"): `queued` when the finished run is meant for
    /// the upload outbox, `uploaded` with key, ETag and date once activetask-upload's receipt was
    /// seen. Nil without uploads configured, and in manifests written before uploads.
    public var upload: RunUploadRecord?

    public init(taskRunUUID: UUID, taskIdentifier: String, startDate: Date, results: TaskResult,
                status: RunStatus = .running, finishReason: FinishReason? = nil, currentStepPath: String? = nil,
                history: [String] = [], controllers: [Controller] = [], prompts: [Prompt] = []) {
        format = Self.currentFormat
        self.taskRunUUID = taskRunUUID
        self.taskIdentifier = taskIdentifier
        self.status = status
        self.finishReason = finishReason
        self.startDate = startDate
        updatedDate = startDate
        self.currentStepPath = currentStepPath
        self.history = history
        self.results = results
        self.controllers = controllers
        self.prompts = prompts
        notes = []
    }

    private enum CodingKeys: String, CodingKey {
        case format, taskRunUUID, taskIdentifier, status, finishReason, startDate, updatedDate, currentStepPath
        case history, results, controllers, prompts, archive, archiveSHA256, collectedDate, notes, cohorts, fullInstructions, upload
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(Int.self, forKey: .format)
        guard format <= Self.currentFormat else {
            throw DecodingError.dataCorruptedError(
                forKey: .format, in: container,
                debugDescription: "The manifest has format \(format); this daemon reads up to \(Self.currentFormat). Update the daemon.")
        }
        taskRunUUID = try container.decode(UUID.self, forKey: .taskRunUUID)
        taskIdentifier = try container.decode(String.self, forKey: .taskIdentifier)
        status = try container.decode(RunStatus.self, forKey: .status)
        finishReason = try container.decodeIfPresent(FinishReason.self, forKey: .finishReason)
        startDate = try container.decode(Date.self, forKey: .startDate)
        updatedDate = try container.decode(Date.self, forKey: .updatedDate)
        currentStepPath = try container.decodeIfPresent(String.self, forKey: .currentStepPath)
        history = try container.decodeIfPresent([String].self, forKey: .history) ?? []
        results = try container.decode(TaskResult.self, forKey: .results)
        controllers = try container.decodeIfPresent([Controller].self, forKey: .controllers) ?? []
        prompts = try container.decodeIfPresent([Prompt].self, forKey: .prompts) ?? []
        archive = try container.decodeIfPresent(String.self, forKey: .archive)
        archiveSHA256 = try container.decodeIfPresent(String.self, forKey: .archiveSHA256)
        collectedDate = try container.decodeIfPresent(Date.self, forKey: .collectedDate)
        notes = try container.decodeIfPresent([String].self, forKey: .notes) ?? []
        cohorts = try container.decodeIfPresent([String].self, forKey: .cohorts)
        fullInstructions = try container.decodeIfPresent(Bool.self, forKey: .fullInstructions)
        upload = try container.decodeIfPresent(RunUploadRecord.self, forKey: .upload)
    }
}
