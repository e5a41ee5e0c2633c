public import Foundation
public import Logging

/// Where and how a recorder writes: the run directory, how its files are named and the run's
/// identity for logging. Created by the task runner, one per controller.
public struct RecorderOutput: Sendable {
    /// The run directory; file results are relative to it.
    public var directory: URL
    /// The base name of the main file (no extension): `RecorderFileName.filename(for:)` of the
    /// logger identifier, or the name given as it is.
    public var baseName: String
    /// The logger identifier (`<section>_<identifier>`) every file is named after with
    /// MobilePassiveData's rule; nil names files `baseName` + suffix as given (the offline
    /// commands, which write the file a person named).
    public var loggerIdentifier: String?
    /// The section prefix of `loggerIdentifier` (`<section>_`), dropped from file result identifiers.
    public var filePrefix: String
    /// Names this output never deletes or reuses, even with `shouldDeletePrevious`: the files
    /// of other recorders and of the run before a resume.
    public var protectedNames: Set<String>
    /// The files claimed so far (shared by every copy).
    public let claims: RecorderFileClaims
    /// The run's UUID.
    public var taskRunUUID: UUID
    /// The path of the task or section that declared the action (`WalkAndBalance/walk`).
    public var ownerPath: String
    /// A logger carrying the run's metadata.
    public var logger: Logger

    /// An output writing `baseName` + suffix + extension as given.
    public init(directory: URL, baseName: String, taskRunUUID: UUID, ownerPath: String, logger: Logger) {
        self.directory = directory
        self.baseName = baseName
        loggerIdentifier = nil
        filePrefix = ""
        protectedNames = []
        claims = RecorderFileClaims()
        self.taskRunUUID = taskRunUUID
        self.ownerPath = ownerPath
        var logger = logger
        logger[metadataKey: "taskRunUUID"] = "\(taskRunUUID)"
        logger[metadataKey: "owner"] = "\(ownerPath)"
        self.logger = logger
    }

    /// An output naming its files as MobilePassiveData does: `filename(for:)` of
    /// `<section>_<identifier>` plus each logger's suffix (docs/async-actions.md, "File names").
    public init(directory: URL, sectionIdentifier: String?, identifier: String, protectedNames: Set<String> = [],
                taskRunUUID: UUID, ownerPath: String, logger: Logger) {
        let loggerIdentifier = RecorderFileName.loggerIdentifier(sectionIdentifier: sectionIdentifier, identifier: identifier)
        self.init(directory: directory, baseName: RecorderFileName.filename(for: loggerIdentifier), taskRunUUID: taskRunUUID,
                  ownerPath: ownerPath, logger: logger)
        self.loggerIdentifier = loggerIdentifier
        filePrefix = sectionIdentifier.map { "\($0)_" } ?? ""
        self.protectedNames = protectedNames
    }

    /// The URL of a file with this output's base name and `fileExtension`.
    public func url(fileExtension: String, suffix: String = "") -> URL {
        directory.appendingPathComponent("\(name(suffix: suffix)).\(fileExtension)")
    }

    /// The name (no extension) of the logger with `suffix`.
    func name(suffix: String) -> String {
        loggerIdentifier.map { RecorderFileName.filename(for: $0 + suffix) } ?? baseName + suffix
    }

    /// The URLs a recording writes, one per `(suffix, extension)` (the suffix is the logger's,
    /// `_levels`), each named on its own as MobilePassiveData's `createFileURL` does: a free name
    /// is used; a taken one is deleted and reused when `deletePrevious` (SageResearch's
    /// `shouldDeletePrevious`) allows and it is not protected, else this recording takes the
    /// name with a `-XXXX` suffix (docs/async-actions.md). Creates the directory.
    public func claimFiles(_ files: [(suffix: String, fileExtension: String)], deletePrevious: Bool) throws -> [URL] {
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        var taken = Set(try manager.contentsOfDirectory(atPath: directory.path)).union(protectedNames)
        var urls: [URL] = []
        for file in files {
            let name = name(suffix: file.suffix)
            var chosen = "\(name).\(file.fileExtension)"
            let url = directory.appendingPathComponent(chosen)
            if deletePrevious, !protectedNames.contains(chosen), !RecorderFileName.reserved.contains(name),
               manager.fileExists(atPath: url.path) {
                try manager.removeItem(at: url)
                taken.remove(chosen)
            }
            chosen = RecorderFileName.unique(name: name, fileExtension: file.fileExtension, taken: taken)
            taken.insert(chosen)
            urls.append(directory.appendingPathComponent(chosen))
            let logger = (loggerIdentifier ?? baseName) + file.suffix
            let identifier = logger.hasPrefix(filePrefix) ? String(logger.dropFirst(filePrefix.count)) : logger
            claims.add(.init(name: chosen, identifier: identifier))
        }
        return urls
    }

    /// `url`'s path relative to the run directory (the `relativePath` of a file result).
    public func relativePath(of url: URL) -> String {
        let base = directory.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
        return url.lastPathComponent
    }
}
