public import Foundation
import TaskModel

extension RunStore {
    /// What retention did.
    public struct RetentionReport: Sendable, Hashable {
        /// Runs removed whole (past the policy and collected).
        public var removed: [UUID] = []
        /// Runs past the policy whose files were removed; their manifest and archive wait for collection.
        public var trimmed: [UUID] = []
    }

    /// Applies `policy` to the finished runs (running and saved runs are never touched).
    public func prune(_ policy: RetentionPolicy, now: Date = Date()) throws(RunStoreError) -> RetentionReport {
        var report = RetentionReport()
        let uploads = uploadsConfigured
        let finished = runDirectories()
            .compactMap { run -> (RunDirectory, RunManifest)? in
                guard let manifest = try? run.readManifest(), manifest.status == .final else { return nil }
                return (run, manifest)
            }
            .sorted { $0.1.results.endDate > $1.1.results.endDate }
        for (rank, (run, manifest)) in finished.enumerated() {
            if uploads { reconcileUpload(of: run, manifest: manifest, now: now) }
            guard policy.isPastLimits(rank: rank, age: now.timeIntervalSince(manifest.results.endDate)) else { continue }
            // With uploads configured, only a receipt from activetask-upload for this very
            // archive lets a run go (docs/upload.md, "No receipt, no deletion"): an archive the
            // study has not received is never deleted.
            let collected = manifest.collectedDate != nil
                || (uploads && receiptConfirms(run, manifest: manifest))
            if collected || (!uploads && !policy.keepUncollectedArchives) {
                try discard(run.taskRunUUID)
                if uploads { removeFromOutbox(run.taskRunUUID) }
                report.removed.append(run.taskRunUUID)
            } else if manifest.archive == nil {
                // Nothing holds its files but the run itself: it stays whole until collected.
                continue
            } else if try trim(run, now: now) {
                report.trimmed.append(run.taskRunUUID)
            }
        }
        return report
    }

    /// Removes everything but the manifest and the archive; false when there was nothing left.
    private func trim(_ run: RunDirectory, now: Date) throws(RunStoreError) -> Bool {
        let keep: Set<String> = [RunDirectory.manifestName, run.archiveName]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: run.url.path)) ?? []
        let doomed = names.filter { !keep.contains($0) }
        guard !doomed.isEmpty else { return false }
        for name in doomed {
            do {
                try FileManager.default.removeItem(at: run.url.appendingPathComponent(name))
            } catch {
                throw RunStoreError("trim the run", path: run.url.appendingPathComponent(name).path, reason: error.localizedDescription)
            }
        }
        try updateFinishedManifest(of: run, now: now) { manifest in
            manifest.notes.append("Retention removed the run's files on \(Timestamp.string(from: now)); the archive is kept until it is collected.")
            return true
        }
        logger.info("Retention trimmed a run to its archive.", metadata: ["taskRunUUID": "\(run.taskRunUUID)"])
        return true
    }
}
