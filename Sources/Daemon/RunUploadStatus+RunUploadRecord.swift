import ControlProtocol
import Session
import TaskModel

extension RunUploadStatus {
    /// The run store's upload record as `runs.list` and `run.result` give it.
    init(_ record: RunUploadRecord) {
        let state: RunUploadState = switch record.state {
        case .queued: .queued
        case .waiting: .waiting
        case .uploading: .uploading
        case .held: .held
        case .uploaded: .uploaded
        case .receiptMismatch: .receiptMismatch
        }
        self.init(state: state, key: record.key, etag: record.etag,
                  uploadedDate: record.uploadedDate.map { Timestamp.string(from: $0) }, attempts: record.attempts,
                  lastErrorCode: record.lastErrorCode, lastError: record.lastError,
                  nextTry: record.nextTry.map { Timestamp.string(from: $0) })
    }
}
