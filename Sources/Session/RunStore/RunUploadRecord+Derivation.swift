public import Foundation
import TaskModel
public import UploadFormats

extension RunUploadRecord {
    /// What `<data-dir>/uploads/` holds of a run's receipt.
    public enum Receipt: Sendable, Hashable {
        case absent
        /// The file exists but does not decode; it is shown as uploaded (the uploader wrote it), but
        /// retention deletes nothing on it (`RunStore.receiptConfirms`, docs/upload.md).
        case unreadable
        case present(UploadReceipt)
    }

    /// A run's upload state from the files (docs/runs.md, "Uploads"): a receipt says `uploaded`
    /// (with its key, ETag and date), else an `uploaded` the manifest recorded stays, else the
    /// uploader's queue entry gives its state, attempts, errors and next try, else an outbox entry
    /// says `queued`. Nil when uploads are not configured, the run is not finished, or nothing
    /// puts it on the way (finished before uploads were configured, or its entry is missing).
    public static func derive(configured: Bool, finished: Bool, receipt: Receipt, queueEntry: UploadQueueSnapshot.Run?,
                              inOutbox: Bool, recorded: RunUploadRecord?) -> RunUploadRecord? {
        guard configured, finished else { return nil }
        switch receipt {
        case .present(let receipt):
            return RunUploadRecord(state: .uploaded, key: receipt.key, etag: receipt.etag,
                                   uploadedDate: Timestamp.date(from: receipt.uploadedDate))
        case .unreadable:
            if let recorded, recorded.state == .uploaded { return recorded }
            return RunUploadRecord(state: .uploaded)
        case .absent:
            break
        }
        if let recorded, recorded.state == .uploaded { return recorded }
        // A state this build does not know (a newer uploader) reads as queued: the entry is there.
        if let queueEntry, let state = State(rawValue: queueEntry.state), state != .queued {
            return RunUploadRecord(state: state, attempts: queueEntry.attempts, lastErrorCode: queueEntry.lastErrorCode,
                                   lastError: queueEntry.lastError, nextTry: queueEntry.nextTry.flatMap(Timestamp.date(from:)))
        }
        return inOutbox || queueEntry != nil ? RunUploadRecord(state: .queued) : nil
    }
}
