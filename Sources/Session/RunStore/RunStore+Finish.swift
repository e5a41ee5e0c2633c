public import Foundation
import TaskModel

extension RunStore {
    /// Ends a run: writes its results and archive, then the manifest with status `final` and
    /// `reason` (or `saved` for a save, which writes no archive). The manifest is written last,
    /// so a crash in between leaves a run that recovery finishes again. When uploads are configured,
    /// the manifest says `queued` and the finished archive is then placed in the upload outbox
    /// (`RunStore+Outbox`). The archive's SHA-256 is recorded in the manifest (and the outbox
    /// entry): retention compares it with the receipt's (docs/upload.md, "No receipt, no deletion").
    @discardableResult
    public func finish(_ run: RunDirectory, manifest: RunManifest, reason: FinishReason, now: Date = Date()) throws(RunStoreError) -> RunManifest {
        var manifest = manifest
        manifest.finishReason = reason
        if reason == .saved {
            manifest.status = .saved
        } else {
            if manifest.results.endDateTime == nil { manifest.results.endDateTime = now }
            manifest.results.closeOpenSections(at: manifest.results.endDate)
            let archiveURL = try run.writeResultsAndArchive(manifest.results, platform: platform, now: now).archive
            manifest.archiveSHA256 = try RunArchive.sha256(of: archiveURL)
            manifest.status = .final
            manifest.currentStepPath = nil
            manifest.archive = run.archiveName
            // Recorded with the final manifest, before the outbox entry: a crash in between leaves
            // `queued` without an entry, and the next retention pass places it (docs/runs.md).
            if uploadsConfigured { manifest.upload = RunUploadRecord(state: .queued) }
        }
        try run.writeManifest(manifest, now: now)
        placeInOutbox(run, manifest: manifest)
        logger.info("The run finished.", metadata: ["taskRunUUID": "\(run.taskRunUUID)", "reason": "\(reason.rawValue)"])
        return manifest
    }
}
