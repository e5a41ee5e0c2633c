public import Foundation

extension RunStore {
    /// `<data-dir>/outbox/`: when it exists, uploads are configured (activetask-upload's setup
    /// creates it, docs/upload.md) and every finished run's archive is placed in it.
    public var outboxDirectory: URL { dataDirectory.appendingPathComponent("outbox") }
    /// `<data-dir>/uploads/`: activetask-upload's receipts (`<uuid>.uploaded.json`).
    public var uploadReceiptsDirectory: URL { dataDirectory.appendingPathComponent("uploads") }

    /// Whether uploads are configured (the outbox directory exists).
    public var uploadsConfigured: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: outboxDirectory.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Whether activetask-upload confirmed that the storage holds the run's archive.
    public func isUploaded(_ taskRunUUID: UUID) -> Bool {
        FileManager.default.fileExists(atPath: uploadReceiptsDirectory.appendingPathComponent("\(taskRunUUID.uuidString).uploaded.json").path)
    }

    /// The outbox entry of a finished run (the format activetask-upload's `OutboxEntry` reads,
    /// docs/upload.md "The outbox").
    struct OutboxEntry: Encodable {
        var taskRunUUID: UUID
        var taskIdentifier: String
        var archive: String
        var size: Int64
        var finishReason: String
        var endDate: String
    }

    /// Places the finished run's archive in the outbox, atomically (temporary file, fsync,
    /// rename), when uploads are configured. A failure is logged and leaves the run finished:
    /// the archive stays on the device and retention keeps it.
    func placeInOutbox(_ run: RunDirectory, manifest: RunManifest) {
        guard uploadsConfigured, manifest.status == .final, let archive = manifest.archive else { return }
        let archiveURL = run.url.appendingPathComponent(archive)
        let size = ((try? FileManager.default.attributesOfItem(atPath: archiveURL.path))?[.size] as? NSNumber)?.int64Value ?? 0
        let entry = OutboxEntry(
            taskRunUUID: run.taskRunUUID, taskIdentifier: manifest.taskIdentifier,
            archive: "runs/\(run.taskRunUUID.uuidString)/\(archive)", size: size,
            finishReason: manifest.finishReason?.rawValue ?? "completed",
            endDate: ISO8601DateFormatter().string(from: manifest.results.endDate))
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(entry)
            try DurableFile.write(data, to: outboxDirectory.appendingPathComponent("\(run.taskRunUUID.uuidString).json"),
                                  operation: "place the archive in the upload outbox")
            logger.info("The run's archive waits in the upload outbox.", metadata: ["taskRunUUID": "\(run.taskRunUUID)"])
        } catch {
            logger.error("The run's archive could not be placed in the upload outbox; it stays on the device.",
                         metadata: ["taskRunUUID": "\(run.taskRunUUID)", "error": "\(error)"])
        }
    }

    /// Removes the run's outbox entry and upload receipt (the run itself was removed).
    func removeFromOutbox(_ taskRunUUID: UUID) {
        try? FileManager.default.removeItem(at: outboxDirectory.appendingPathComponent("\(taskRunUUID.uuidString).json"))
        try? FileManager.default.removeItem(at: uploadReceiptsDirectory.appendingPathComponent("\(taskRunUUID.uuidString).uploaded.json"))
    }
}
