public import Foundation
import TaskModel
public import UploadFormats

extension RunUploadRecord {
    /// What `<data-dir>/uploads/` holds of a run's receipt.
    public enum Receipt: Sendable, Hashable {
        case absent
        /// The file exists but does not decode: retention deletes nothing on it, so it is shown
        /// as `receiptMismatch`, never `uploaded` (docs/upload.md, "No receipt, no deletion").
        case unreadable
        case present(UploadReceipt)
        /// A receipt that does not confirm the archive the run recorded (its size, or SHA-256:
        /// `UploadReceipt.disagreement`), with the reason; retention keeps the run.
        case mismatching(UploadReceipt, reason: String)
    }

    /// A run's upload state from the files (docs/runs.md, "Uploads"): a receipt that confirms the
    /// run's archive says `uploaded` (with its key, ETag and date), one that does not (or cannot
    /// be read) `receiptMismatch` with the reason as `lastError`, as retention judges it, else an `uploaded` the manifest recorded stays, else the
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
        case .mismatching(let receipt, let reason):
            return RunUploadRecord(state: .receiptMismatch, key: receipt.key, etag: receipt.etag,
                                   uploadedDate: Timestamp.date(from: receipt.uploadedDate),
                                   lastErrorCode: mismatchCode, lastError: reason + mismatchAdvice)
        case .unreadable:
            return RunUploadRecord(state: .receiptMismatch, lastErrorCode: mismatchCode,
                                   lastError: "The upload receipt cannot be read." + mismatchAdvice)
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

    /// `lastErrorCode` of a receipt that does not confirm the run's archive.
    public static let mismatchCode = UploadReceipt.mismatchCode
    private static let mismatchAdvice = " The run is kept (retention deletes it only on a receipt for its archive); check the archive and the uploader, and remove the receipt to have the run uploaded again."
}
