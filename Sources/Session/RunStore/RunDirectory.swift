public import Foundation
public import TaskModel

/// One run's directory, `<data-dir>/runs/<taskRunUUID>/`, and the files in it (docs/runs.md):
/// `run.json` (the manifest), `task.json` (the task as loaded; not archived), `taskResult.json`,
/// `answers.json`, `metadata.json`, the recorder files, `prompts.json` when prompts were spoken,
/// and the archive `<taskRunUUID>.zip`.
///
/// Every method blocks on the disk (fsync); call it off the session's actor.
public struct RunDirectory: Sendable, Hashable {
    public static let manifestName = "run.json"
    public static let taskSourceName = "task.json"
    public static let taskResultName = "taskResult.json"
    public static let answersName = "answers.json"
    public static let metadataName = "metadata.json"
    public static let promptsName = "prompts.json"
    /// Names a recorder file must not take (`RecorderFileName` adds a `-XXXX` suffix instead).
    public static let reservedNames: Set<String> = ["run", "task", "taskResult", "answers", "metadata", "prompts"]

    public let url: URL
    public let taskRunUUID: UUID

    public init(url: URL, taskRunUUID: UUID) {
        self.url = url
        self.taskRunUUID = taskRunUUID
    }

    public var manifestURL: URL { url.appendingPathComponent(Self.manifestName) }
    public var archiveName: String { "\(taskRunUUID.uuidString).zip" }
    public var archiveURL: URL { url.appendingPathComponent(archiveName) }

    // MARK: - Manifest

    /// Reads `run.json`.
    public func readManifest() throws(RunStoreError) -> RunManifest {
        let data: Data
        do {
            data = try Data(contentsOf: manifestURL)
        } catch {
            throw RunStoreError("read the run manifest", path: manifestURL.path, reason: "\(error.localizedDescription)",
                                advice: "The run directory has no manifest; the run cannot be resumed or recovered.")
        }
        do {
            return try ResultCoding.makeDecoder().decode(RunManifest.self, from: data)
        } catch {
            throw RunStoreError("read the run manifest", path: manifestURL.path, reason: "\(error)",
                                advice: "The manifest is not one this daemon wrote; leave the run directory for inspection.")
        }
    }

    /// Replaces `run.json` atomically, stamping `updatedDate`.
    public func writeManifest(_ manifest: RunManifest, now: Date = Date()) throws(RunStoreError) {
        var manifest = manifest
        manifest.updatedDate = now
        try writeJSON(manifest, name: Self.manifestName, what: "the run manifest")
    }

    /// Keeps the task as it was loaded, for resume and for the record (`task.json`).
    public func writeTaskSource(_ data: Data) throws(RunStoreError) {
        try RunStoreFile.write(data, to: url.appendingPathComponent(Self.taskSourceName), operation: "write the task copy")
    }

    /// The task as loaded, for resume.
    public func readTaskSource() throws(RunStoreError) -> Data {
        let file = url.appendingPathComponent(Self.taskSourceName)
        do {
            return try Data(contentsOf: file)
        } catch {
            throw RunStoreError("read the task copy", path: file.path, reason: error.localizedDescription)
        }
    }

    /// Writes `prompts.json` (the prompts spoken so far).
    public func writePrompts(_ prompts: [RunManifest.Prompt]) throws(RunStoreError) {
        try writeJSON(prompts, name: Self.promptsName, what: "the spoken prompts")
    }

    // MARK: - Results

    /// What `writeResults` wrote and what the archive will hold.
    public struct WrittenResults: Sendable {
        public var metadata: RunMetadata
        /// Archive entries in order: recorder files, `answers.json`, `taskResult.json`, `metadata.json`.
        public var archiveEntries: [String]
        /// File results left out because their file is missing or outside the run directory.
        public var missingFiles: [String]
    }

    /// Writes `taskResult.json`, `answers.json` and `metadata.json` (SageResearch's
    /// result-ready moment; rewritten when anything changes before the run ends).
    @discardableResult
    public func writeResults(_ taskResult: TaskResult, platform: ArchivePlatform, now: Date = Date()) throws(RunStoreError) -> WrittenResults {
        var files: [RunMetadata.File] = []
        var missing: [String] = []
        var seen: Set<String> = []
        var frontEndResults: [(TappingResult, ResultTreeWalk.Location)] = []
        ResultTreeWalk.visit(taskResult) { result, location in
            if let tapping = result as? TappingResult { frontEndResults.append((tapping, location)) }
            guard let file = result as? FileResult else { return }
            guard Self.isInside(file.relativePath), FileManager.default.fileExists(atPath: url.appendingPathComponent(file.relativePath).path) else {
                missing.append(file.relativePath)
                return
            }
            guard seen.insert(file.relativePath).inserted else { return }
            files.append(RunMetadata.File(filename: file.relativePath, timestamp: file.startDate, contentType: file.contentType,
                                          identifier: file.identifier, stepPath: location.stepPath))
        }
        for (result, location) in frontEndResults {
            files += try writeFrontEndResult(result, at: location, taken: &seen)
        }
        try writeJSON(AnswerMap.answers(in: taskResult), name: Self.answersName, what: "the answers")
        files.append(RunMetadata.File(filename: Self.answersName, timestamp: now, contentType: "application/json"))
        try writeJSON(taskResult, name: Self.taskResultName, what: "the task result")
        files.append(RunMetadata.File(filename: Self.taskResultName, timestamp: now, contentType: "application/json"))
        let metadata = RunMetadata(platform: platform, taskResult: taskResult, files: files)
        try writeJSON(metadata, name: Self.metadataName, what: "the archive metadata")
        return WrittenResults(metadata: metadata, archiveEntries: files.map(\.filename) + [Self.metadataName], missingFiles: missing)
    }

    /// Writes the results and then the archive; returns the archive's URL.
    @discardableResult
    public func writeResultsAndArchive(_ taskResult: TaskResult, platform: ArchivePlatform, now: Date = Date()) throws(RunStoreError) -> (results: WrittenResults, archive: URL) {
        let written = try writeResults(taskResult, platform: platform, now: now)
        try RunArchive.write(entries: written.archiveEntries, from: url, to: archiveURL)
        return (written, archiveURL)
    }

    // MARK: - Helpers

    private func writeJSON<T: Encodable>(_ value: T, name: String, what: String) throws(RunStoreError) {
        let file = url.appendingPathComponent(name)
        let data: Data
        do {
            data = try ResultCoding.makeEncoder().encode(value)
        } catch {
            throw RunStoreError("encode \(what)", path: file.path, reason: "\(error)")
        }
        try RunStoreFile.write(data, to: file, operation: "write \(what)")
    }

    /// True for a plain relative path that stays inside the run directory.
    static func isInside(_ relativePath: String) -> Bool {
        !relativePath.isEmpty && !relativePath.hasPrefix("/")
            && !relativePath.split(separator: "/").contains { $0 == ".." || $0 == "." }
    }
}
