public import Foundation
import UploadFormats

extension RunStore {
    /// `<data-dir>/outbox/`: when it exists, uploads are configured (activetask-upload's setup
    /// creates it, docs/upload.md) and every finished run's archive is placed in it.
    public var outboxDirectory: URL { dataDirectory.appendingPathComponent("outbox") }
    /// `<data-dir>/uploads/`: activetask-upload's receipts (`<uuid>.uploaded.json`) and queue
    /// (`queue.json`). The daemon only reads it: the directory belongs to the uploader's user.
    public var uploadReceiptsDirectory: URL { dataDirectory.appendingPathComponent("uploads") }

    /// Whether uploads are configured (the outbox directory exists).
    public var uploadsConfigured: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: outboxDirectory.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Whether activetask-upload wrote a receipt for the run (for the listings; retention asks
    /// more of it: `receiptConfirms`).
    public func isUploaded(_ taskRunUUID: UUID) -> Bool {
        FileManager.default.fileExists(atPath: receiptURL(of: taskRunUUID).path)
    }

    func receiptURL(of taskRunUUID: UUID) -> URL {
        uploadReceiptsDirectory.appendingPathComponent(UploadReceipt.fileName(for: taskRunUUID))
    }

    func outboxEntryURL(of taskRunUUID: UUID) -> URL {
        outboxDirectory.appendingPathComponent(OutboxEntry.fileName(for: taskRunUUID))
    }

    /// Places the finished run's archive in the outbox, atomically (temporary file, fsync,
    /// rename), when its manifest says it is meant for uploads (`finish` records `queued` when
    /// they are configured). A failure is logged and leaves the run finished: the archive stays on
    /// the device, retention keeps it, and the next retention pass places it again.
    func placeInOutbox(_ run: RunDirectory, manifest: RunManifest) {
        guard uploadsConfigured, manifest.upload != nil, manifest.status == .final, let archive = manifest.archive else { return }
        let archiveURL = run.url.appendingPathComponent(archive)
        let size = ((try? FileManager.default.attributesOfItem(atPath: archiveURL.path))?[.size] as? NSNumber)?.int64Value ?? 0
        let entry = OutboxEntry(
            taskRunUUID: run.taskRunUUID, taskIdentifier: manifest.taskIdentifier,
            archive: "runs/\(run.taskRunUUID.uuidString)/\(archive)", size: size, sha256: manifest.archiveSHA256,
            finishReason: manifest.finishReason?.rawValue ?? "completed",
            endDate: ISO8601DateFormatter().string(from: manifest.results.endDate))
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(entry)
            try RunStoreFile.write(data, to: outboxEntryURL(of: run.taskRunUUID), operation: "place the archive in the upload outbox")
            logger.info("The run's archive waits in the upload outbox.", metadata: ["taskRunUUID": "\(run.taskRunUUID)"])
        } catch {
            logger.error("The run's archive could not be placed in the upload outbox; it stays on the device and the next retention pass tries again.",
                         metadata: ["taskRunUUID": "\(run.taskRunUUID)", "error": "\(error)"])
        }
    }

    /// Removes the run's outbox entry (the run itself was removed). Its receipt stays: `uploads/`
    /// is activetask-upload's, and the daemon only reads it.
    func removeFromOutbox(_ taskRunUUID: UUID) {
        try? FileManager.default.removeItem(at: outboxEntryURL(of: taskRunUUID))
    }
}
