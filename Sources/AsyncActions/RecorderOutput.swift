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

    /// The URLs a recording writes, one per `(suffix, extension)`, as SageResearch's
    /// `shouldDeletePrevious` asks: with `deletePrevious` the files of an earlier recording under
    /// the base name are deleted and the names reused; without it the earlier files stay and
    /// this recording takes the first free `-N` (docs/async-actions.md). Creates the directory.
    public func claimFiles(_ files: [(suffix: String, fileExtension: String)], deletePrevious: Bool) throws -> [URL] {
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        if deletePrevious {
            let urls = files.map { url(fileExtension: $0.fileExtension, suffix: $0.suffix) }
            for url in urls where manager.fileExists(atPath: url.path) { try manager.removeItem(at: url) }
            return urls
        }
        let taken = Set(try manager.contentsOfDirectory(atPath: directory.path))
        return RecorderFileName.unique(baseName: baseName, files: files, taken: taken).map { directory.appendingPathComponent($0) }
    }

    /// `url`'s path relative to the run directory (the `relativePath` of a file result).
    public func relativePath(of url: URL) -> String {
        let base = directory.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
        return url.lastPathComponent
    }
}
