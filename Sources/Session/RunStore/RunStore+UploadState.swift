public import Foundation
import Synchronization
public import UploadFormats

extension RunStore {
    /// The uploader's queue as it last wrote it (`<data-dir>/uploads/queue.json`), by run; empty
    /// when it has not written one or the file cannot be read (its runs then read as `queued`).
    public func uploadQueue() -> [UUID: UploadQueueSnapshot.Run] {
        let url = uploadReceiptsDirectory.appendingPathComponent(UploadQueueSnapshot.fileName)
        guard let data = try? Data(contentsOf: url), let snapshot = try? JSONDecoder().decode(UploadQueueSnapshot.self, from: data) else {
            return [:]
        }
        return Dictionary(snapshot.runs.map { ($0.taskRunUUID, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// What `<data-dir>/uploads/` holds of the run's receipt, read alone (the listings judge it
    /// against the run's archive with `judgedReceipt`).
    public func uploadReceipt(of taskRunUUID: UUID) -> RunUploadRecord.Receipt {
        guard let data = try? Data(contentsOf: receiptURL(of: taskRunUUID)) else {
            return isUploaded(taskRunUUID) ? .unreadable : .absent
        }
        guard let receipt = try? JSONDecoder().decode(UploadReceipt.self, from: data) else { return .unreadable }
        return .present(receipt)
    }

    /// The run's receipt judged against the archive the run recorded
    /// (`UploadReceipt.disagreement`): a receipt that does not match it is `mismatching`, with
    /// the reason. Reads the archive's size on disk and the run's outbox entry.
    func judgedReceipt(of run: RunDirectory, manifest: RunManifest) -> RunUploadRecord.Receipt {
        let read = uploadReceipt(of: run.taskRunUUID)
        guard case .present(let receipt) = read else { return read }
        let onDisk = manifest.archive.flatMap { archive in
            ((try? FileManager.default.attributesOfItem(atPath: run.url.appendingPathComponent(archive).path))?[.size] as? NSNumber)?.int64Value
        }
        let entry = (try? Data(contentsOf: outboxEntryURL(of: run.taskRunUUID))).flatMap { try? JSONDecoder().decode(OutboxEntry.self, from: $0) }
        guard let reason = receipt.disagreement(archiveSize: onDisk, recordedSize: entry?.size,
                                                recordedSHA256: manifest.archiveSHA256 ?? entry?.sha256) else { return .present(receipt) }
        return .mismatching(receipt, reason: reason)
    }

    /// Whether activetask-upload's receipt confirms the archive this run recorded, which alone
    /// lets retention delete the run (docs/upload.md, "No receipt, no deletion"): its size, and
    /// its SHA-256 where both the receipt and the run record one (`judgedReceipt`). A receipt that
    /// does not match is logged and the run kept.
    func receiptConfirms(_ run: RunDirectory, manifest: RunManifest) -> Bool {
        switch judgedReceipt(of: run, manifest: manifest) {
        case .present: return true
        case .absent: return false
        case .unreadable:
            logger.warning("The run's upload receipt cannot be read; the run is kept until a receipt for its archive is written.",
                           metadata: ["taskRunUUID": "\(run.taskRunUUID)"])
            return false
        case .mismatching(_, let reason):
            logger.warning("The run's upload receipt does not match its archive; the run is kept until a receipt for this archive is written.",
                           metadata: ["taskRunUUID": "\(run.taskRunUUID)", "reason": "\(reason)"])
            return false
        }
    }

    /// The run's upload state from the files (`RunUploadRecord.derive`), given the uploader's
    /// `queue` (`uploadQueue()`, read once per listing); nil when uploads are not configured.
    /// A receipt the manifest does not record yet is recorded in it (`recordUpload`).
    func uploadState(of run: RunDirectory, manifest: RunManifest, queue: [UUID: UploadQueueSnapshot.Run], configured: Bool,
                     now: Date = Date()) -> RunUploadRecord? {
        let receipt = configured ? judgedReceipt(of: run, manifest: manifest) : .absent
        let state = RunUploadRecord.derive(
            configured: configured, finished: manifest.status == .final, receipt: receipt,
            queueEntry: queue[run.taskRunUUID],
            inOutbox: configured && FileManager.default.fileExists(atPath: outboxEntryURL(of: run.taskRunUUID).path),
            recorded: manifest.upload)
        if let state, receipt != .absent { recordUpload(state, of: run, now: now) }
        return state
    }

    /// Records a confirmed upload in the run's manifest, durably, unless it already says so; a
    /// failure is logged (the receipt stays, so the next listing or retention pass tries again).
    func recordUpload(_ state: RunUploadRecord, of run: RunDirectory, now: Date = Date()) {
        guard state.state == .uploaded else { return }
        do {
            try updateFinishedManifest(of: run, now: now) { manifest in
                if let recorded = manifest.upload, recorded.state == .uploaded, recorded.key == state.key, recorded.etag == state.etag {
                    return false
                }
                manifest.upload = RunUploadRecord(state: .uploaded, key: state.key, etag: state.etag, uploadedDate: state.uploadedDate)
                return true
            }
        } catch {
            logger.error("The confirmed upload could not be recorded in the run manifest; the next listing or retention pass tries again.",
                         metadata: ["taskRunUUID": "\(run.taskRunUUID)", "error": "\(error)"])
        }
    }

    /// The retention pass's look at a finished run's upload: a receipt is recorded in the
    /// manifest; a run whose manifest says `queued` but whose outbox entry is missing (a crash
    /// between the final manifest and the entry, or a failed write) is placed in the outbox again.
    func reconcileUpload(of run: RunDirectory, manifest: RunManifest, now: Date) {
        if isUploaded(run.taskRunUUID) {
            _ = uploadState(of: run, manifest: manifest, queue: [:], configured: true, now: now)
        } else if manifest.upload?.state == .queued,
                  !FileManager.default.fileExists(atPath: outboxEntryURL(of: run.taskRunUUID).path) {
            placeInOutbox(run, manifest: manifest)
        }
    }

    /// Re-reads a finished run's manifest, applies `change` and writes it when `change` says it
    /// changed something. One lock in the process: retention, `runs()` and `markCollected` may
    /// update the same finished run at once (on different threads), and none may lose another's
    /// change. Running runs are written by their session alone and do not take it.
    @discardableResult
    func updateFinishedManifest(of run: RunDirectory, now: Date,
                                _ change: (inout RunManifest) -> Bool) throws(RunStoreError) -> RunManifest {
        try Self.finishedManifestUpdates.withLock { _ throws(RunStoreError) -> RunManifest in
            var manifest = try run.readManifest()
            if change(&manifest) { try run.writeManifest(manifest, now: now) }
            return manifest
        }
    }

    private static let finishedManifestUpdates = Mutex(())
}
