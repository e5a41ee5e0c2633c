public import Foundation
import TaskModel

extension RunStore {
    /// A saved run opened again: its directory, its manifest (status `running` again) and the
    /// task as it was loaded.
    public struct ResumedRun: Sendable {
        public var directory: RunDirectory
        public var manifest: RunManifest
        public var taskSource: Data
    }

    /// Opens a saved run to go on with it (docs/runs.md, save and resume): the manifest goes
    /// back to `running` (so a crash from now on is recovered like any run) and keeps its
    /// history, results and finished files. Refused for a run that is not saved.
    public func resume(_ taskRunUUID: UUID, now: Date = Date()) throws(RunStoreError) -> ResumedRun {
        let run = directory(for: taskRunUUID)
        var manifest = try run.readManifest()
        guard manifest.status == .saved else {
            throw RunStoreError("resume the run", path: run.url.path, reason: "the run is \(manifest.status.rawValue), not saved",
                                advice: "Only a run cancelled with save can be resumed; start the task again instead.")
        }
        let source = try run.readTaskSource()
        manifest.status = .running
        manifest.finishReason = nil
        manifest.notes.append("Resumed on \(Timestamp.string(from: now)) at \(manifest.currentStepPath ?? "its start").")
        try run.writeManifest(manifest, now: now)
        logger.info("Resumed a saved run.", metadata: ["taskRunUUID": "\(taskRunUUID)", "stepPath": "\(manifest.currentStepPath ?? "")"])
        return ResumedRun(directory: run, manifest: manifest, taskSource: source)
    }
}

extension RunDirectory {
    /// The names already used in the run directory, reserved names included, for
    /// `RecorderOutput.protectedNames`: a controller recording again
    /// after a resume gets a new file and the finished one is kept.
    public func takenFileNames() -> Set<String> {
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return Set(existing).union(Self.reservedNames.map { "\($0).json" })
    }
}
