public import Foundation
public import Logging
public import TaskModel
import UploadFormats

/// The runs kept under `<data-dir>/runs/`, one directory per run named by its task run UUID
/// (docs/runs.md): creating runs, listing them, discarding them, recovering the ones a crash
/// left unfinished (`RunStore+Recovery`) and retention (`RunStore+Retention`).
///
/// A value with no state beyond its paths; every method blocks on the disk, so the session and
/// the daemon call it off their actors.
public struct RunStore: Sendable {
    public let dataDirectory: URL
    public var platform: ArchivePlatform
    public var logger: Logger

    public init(dataDirectory: URL, platform: ArchivePlatform = .current(), logger: Logger) {
        self.dataDirectory = dataDirectory
        self.platform = platform
        self.logger = logger
    }

    /// `<data-dir>/runs`.
    public var runsDirectory: URL { dataDirectory.appendingPathComponent("runs") }

    /// The directory of the run `taskRunUUID` (which may not exist).
    public func directory(for taskRunUUID: UUID) -> RunDirectory {
        RunDirectory(url: runsDirectory.appendingPathComponent(taskRunUUID.uuidString), taskRunUUID: taskRunUUID)
    }

    /// Creates the run's directory with `task.json` (the task as loaded) and a first manifest
    /// with status `running`. Fails when the directory already exists.
    public func createRun(taskRunUUID: UUID, taskIdentifier: String, taskSource: Data, results: TaskResult,
                          startDate: Date = Date()) throws(RunStoreError) -> RunDirectory {
        let run = directory(for: taskRunUUID)
        do {
            try FileManager.default.createDirectory(at: runsDirectory, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: run.url, withIntermediateDirectories: false)
        } catch {
            throw RunStoreError("create the run directory", path: run.url.path, reason: error.localizedDescription,
                                advice: "Check that the data directory exists and is writable by the daemon.")
        }
        do throws(RunStoreError) {
            try RunStoreFile.syncDirectory(runsDirectory, operation: "create the run directory")
            try run.writeTaskSource(taskSource)
            try run.writeManifest(RunManifest(taskRunUUID: taskRunUUID, taskIdentifier: taskIdentifier,
                                              startDate: startDate, results: results), now: startDate)
        } catch {
            // Nothing is recorded yet: a run that cannot start (a full disk) leaves no directory
            // without a manifest behind, which runs.list and recovery would report forever.
            try? FileManager.default.removeItem(at: run.url)
            throw error
        }
        return run
    }

    /// Every run directory, newest first; unreadable runs are listed with their problem. With
    /// uploads configured, each finished run carries its upload state, and an upload receipt its
    /// manifest does not record yet is recorded in it (docs/runs.md, "Uploads").
    public func runs() -> [RunSummary] {
        let configured = uploadsConfigured
        let queue = configured ? uploadQueue() : [:]
        return runDirectories()
            .map { summary($0, uploadQueue: queue, uploadsConfigured: configured) }
            .sorted { ($0.startDate ?? .distantPast) > ($1.startDate ?? .distantPast) }
    }

    /// Deletes a run and everything in it (cancel without save, retention).
    ///
    /// The directory is first renamed out of the runs' namespace in one call, so a reader
    /// (`runs.list`, recovery, an uploader) sees the run whole or not at all, never half
    /// deleted; a removal a crash cuts short is finished at the next start
    /// (`removeDiscardedLeftovers`).
    public func discard(_ taskRunUUID: UUID) throws(RunStoreError) {
        let run = directory(for: taskRunUUID)
        let doomed = runsDirectory.appendingPathComponent(Self.discardedPrefix + taskRunUUID.uuidString)
        do {
            try FileManager.default.moveItem(at: run.url, to: doomed)
        } catch {
            throw RunStoreError("discard the run", path: run.url.path, reason: error.localizedDescription)
        }
        try RunStoreFile.syncDirectory(runsDirectory, operation: "discard the run")
        do {
            try FileManager.default.removeItem(at: doomed)
        } catch {
            throw RunStoreError("discard the run", path: doomed.path, reason: error.localizedDescription,
                                advice: "The run is no longer listed; the daemon removes what is left when it starts again.")
        }
        logger.info("Discarded the run.", metadata: ["taskRunUUID": "\(taskRunUUID)"])
    }

    /// Removes what discards cut short left under `runs/` (directories named
    /// `.discarded-<uuid>`); returns how many there were. Call it when the daemon starts.
    @discardableResult
    public func removeDiscardedLeftovers() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: runsDirectory.path)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(Self.discardedPrefix) {
            let url = runsDirectory.appendingPathComponent(name)
            do {
                try FileManager.default.removeItem(at: url)
                removed += 1
            } catch {
                logger.error("A discarded run could not be removed.", metadata: ["path": "\(url.path)", "error": "\(error.localizedDescription)"])
            }
        }
        return removed
    }

    /// The name prefix of a run directory being discarded: not a UUID, so never listed as a run.
    static let discardedPrefix = ".discarded-"

    /// Records that an uploader collected the run's archive; retention may then remove the run.
    public func markCollected(_ taskRunUUID: UUID, now: Date = Date()) throws(RunStoreError) {
        let run = directory(for: taskRunUUID)
        var manifest = try run.readManifest()
        guard manifest.status == .final, manifest.archive != nil else {
            throw RunStoreError("mark the archive collected", path: run.url.path, reason: "the run has no archive yet (status \(manifest.status.rawValue))",
                                advice: "Collect a run only after it finished.")
        }
        try updateFinishedManifest(of: run, now: now) { manifest in
            manifest.collectedDate = now
            return true
        }
    }

    // MARK: - Internals

    /// The run directories: names that are UUIDs.
    func runDirectories() -> [RunDirectory] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: runsDirectory.path)) ?? []
        return names.compactMap { name in UUID(uuidString: name).map { directory(for: $0) } }
    }

    private func summary(_ run: RunDirectory, uploadQueue: [UUID: UploadQueueSnapshot.Run], uploadsConfigured: Bool) -> RunSummary {
        var summary = RunSummary(taskRunUUID: run.taskRunUUID, directory: run.url)
        do {
            let manifest = try run.readManifest()
            summary.taskIdentifier = manifest.taskIdentifier
            summary.status = manifest.status
            summary.finishReason = manifest.finishReason
            summary.startDate = manifest.startDate
            summary.endDate = manifest.results.endDateTime
            summary.collectedDate = manifest.collectedDate
            if FileManager.default.fileExists(atPath: run.archiveURL.path) { summary.archive = run.archiveURL }
            summary.upload = uploadState(of: run, manifest: manifest, queue: uploadQueue, configured: uploadsConfigured)
        } catch {
            summary.problem = error.description
        }
        return summary
    }
}

extension RunSummary {
    init(taskRunUUID: UUID, directory: URL) {
        self.init(taskRunUUID: taskRunUUID, directory: directory, taskIdentifier: nil, status: nil, finishReason: nil,
                  startDate: nil, endDate: nil, archive: nil, collectedDate: nil, upload: nil, problem: nil)
    }
}
