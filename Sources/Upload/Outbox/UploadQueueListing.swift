import Foundation

/// What `activetaskctl uploads` lists (docs/upload.md, "Seeing the queue"): every run the outbox
/// holds without a receipt, oldest first, with the state the uploader last wrote for it
/// (`UploadQueueSnapshot`); a run the uploader has not seen yet (it is stopped, or has not
/// scanned since the run finished) is `new`. A run whose receipt does not confirm its archive is
/// listed too, as `receiptMismatch` with the reason: the daemon keeps it, and the uploader, which
/// skips runs with a receipt, does not upload it again.
public enum UploadQueueListing {
    /// The runs to list, from the outbox's `pending` entries, those whose receipt does not
    /// confirm the archive (`mismatched`, `UploadDirectories.receiptsNotConfirming`) and the
    /// uploader's last `snapshot`.
    public static func runs(pending: [OutboxEntry], mismatched: [(entry: OutboxEntry, reason: String)] = [],
                            snapshot: UploadQueueSnapshot?) -> [UploadQueueSnapshot.Run] {
        var known: [UUID: UploadQueueSnapshot.Run] = [:]
        for run in snapshot?.runs ?? [] { known[run.taskRunUUID] = run }
        for (entry, reason) in mismatched {
            known[entry.taskRunUUID] = UploadQueueSnapshot.Run(
                taskRunUUID: entry.taskRunUUID, taskIdentifier: entry.taskIdentifier, archive: entry.archive, size: entry.size,
                state: "receiptMismatch", attempts: 0, lastErrorCode: UploadReceipt.mismatchCode,
                lastError: reason + " Remove the receipt to have the run uploaded again.")
        }
        return (pending + mismatched.map(\.entry))
            .sorted(by: OutboxEntry.queuedBefore)
            .map { entry in
                known[entry.taskRunUUID] ?? UploadQueueSnapshot.Run(
                    taskRunUUID: entry.taskRunUUID, taskIdentifier: entry.taskIdentifier, archive: entry.archive,
                    size: entry.size, state: "new", attempts: 0)
            }
    }

    /// A size in bytes as people read it (`512 B`, `3.4 KiB`, `1.2 MiB`, `2.0 GiB`).
    public static func size(_ bytes: Int64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard bytes >= 1024 else { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = (value * 10).rounded() / 10
        return "\(tenths) \(units[unit])"
    }
}
