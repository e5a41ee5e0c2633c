public import Foundation
public import Logging

/// Where and how a recorder writes: the run directory, its file's base name and the run's
/// identity for logging. Created by the task runner, one per controller.
public struct RecorderOutput: Sendable {
    /// The run directory; file results are relative to it.
    public var directory: URL
    /// The base file name chosen by `RecorderFileName` (no extension).
    public var baseName: String
    /// The run's UUID.
    public var taskRunUUID: UUID
    /// The path of the task or section that declared the action (`WalkAndBalance/walk`).
    public var ownerPath: String
    /// A logger carrying the run's metadata.
    public var logger: Logger

    public init(directory: URL, baseName: String, taskRunUUID: UUID, ownerPath: String, logger: Logger) {
        self.directory = directory
        self.baseName = baseName
        self.taskRunUUID = taskRunUUID
        self.ownerPath = ownerPath
        var logger = logger
        logger[metadataKey: "taskRunUUID"] = "\(taskRunUUID)"
        logger[metadataKey: "owner"] = "\(ownerPath)"
        self.logger = logger
    }

    /// The URL of a file with this output's base name and `fileExtension`.
    public func url(fileExtension: String, suffix: String = "") -> URL {
        directory.appendingPathComponent("\(baseName)\(suffix).\(fileExtension)")
    }
}
