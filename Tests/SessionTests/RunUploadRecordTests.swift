import Foundation
import Session
import Testing
import UploadFormats

/// `RunUploadRecord.derive`: a run's upload state from the files (docs/runs.md, "Uploads").
@Suite struct RunUploadRecordTests {
    static let receipt = UploadReceipt(taskRunUUID: "R", key: "study/dev/2026-11-25/Walk/R.zip", etag: "\"abc\"", size: 10,
                                       uploadedDate: "2026-11-25T21:30:00Z")
    static let uploadedDate = Date(timeIntervalSince1970: 1_795_642_200)  // 2026-11-25T21:30:00Z
    static let mismatchAdvice = " The run is kept (retention deletes it only on a receipt for its archive); check the archive and the uploader, and remove the receipt to have the run uploaded again."

    static func queued(_ state: String, attempts: Int = 0, code: String? = nil, error: String? = nil,
                       nextTry: String? = nil) -> UploadQueueSnapshot.Run {
        UploadQueueSnapshot.Run(taskRunUUID: UUID(), taskIdentifier: "Walk", archive: "runs/x/x.zip", size: 10, state: state,
                                attempts: attempts, lastErrorCode: code, lastError: error, nextTry: nextTry)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var configured = true
        var finished = true
        var receipt: RunUploadRecord.Receipt = .absent
        var queueEntry: UploadQueueSnapshot.Run?
        var inOutbox = true
        var recorded: RunUploadRecord?
        var expected: RunUploadRecord?
    }

    static let cases: [Case] = [
        Case(testDescription: "nothing configured: nil even with a receipt", configured: false, receipt: .present(receipt),
             expected: nil),
        Case(testDescription: "a run not finished: nil", finished: false, expected: nil),
        Case(testDescription: "only the outbox entry: queued", expected: RunUploadRecord(state: .queued)),
        Case(testDescription: "neither entry nor queue nor receipt: nil", inOutbox: false, expected: nil),
        Case(testDescription: "a recorded queued without its entry: nil", inOutbox: false,
             recorded: RunUploadRecord(state: .queued), expected: nil),
        Case(testDescription: "the queue's waiting with a retried failure and next try",
             queueEntry: queued("waiting", attempts: 2, code: "HTTP 503", error: "The storage is busy.", nextTry: "2026-11-25T21:30:00Z"),
             expected: RunUploadRecord(state: .waiting, attempts: 2, lastErrorCode: "HTTP 503", lastError: "The storage is busy.",
                                       nextTry: uploadedDate)),
        Case(testDescription: "the queue's held with its error",
             queueEntry: queued("held", attempts: 1, code: "SignatureDoesNotMatch", error: "Check the secret."),
             expected: RunUploadRecord(state: .held, attempts: 1, lastErrorCode: "SignatureDoesNotMatch", lastError: "Check the secret.")),
        Case(testDescription: "the queue's uploading", queueEntry: queued("uploading"),
             expected: RunUploadRecord(state: .uploading, attempts: 0)),
        Case(testDescription: "a state this build does not know: queued", queueEntry: queued("teleporting"),
             expected: RunUploadRecord(state: .queued)),
        Case(testDescription: "the queue wins over the outbox and a recorded queued", queueEntry: queued("held", attempts: 3),
             recorded: RunUploadRecord(state: .queued), expected: RunUploadRecord(state: .held, attempts: 3)),
        Case(testDescription: "the receipt wins over the queue", receipt: .present(receipt), queueEntry: queued("held", attempts: 3),
             expected: RunUploadRecord(state: .uploaded, key: receipt.key, etag: receipt.etag, uploadedDate: uploadedDate)),
        Case(testDescription: "the receipt alone, outbox entry gone", receipt: .present(receipt), inOutbox: false,
             expected: RunUploadRecord(state: .uploaded, key: receipt.key, etag: receipt.etag, uploadedDate: uploadedDate)),
        Case(testDescription: "an unreadable receipt is no upload: receiptMismatch, as retention judges it", receipt: .unreadable,
             expected: RunUploadRecord(state: .receiptMismatch, lastErrorCode: "ReceiptMismatch",
                                       lastError: "The upload receipt cannot be read." + mismatchAdvice)),
        Case(testDescription: "an unreadable receipt overrides an uploaded the manifest recorded", receipt: .unreadable,
             recorded: RunUploadRecord(state: .uploaded, key: "k", etag: "e"),
             expected: RunUploadRecord(state: .receiptMismatch, lastErrorCode: "ReceiptMismatch",
                                       lastError: "The upload receipt cannot be read." + mismatchAdvice)),
        Case(testDescription: "a mismatching receipt: receiptMismatch with its key, ETag and reason, over the queue and the manifest",
             receipt: .mismatching(receipt, reason: "Another archive."), queueEntry: queued("waiting"),
             recorded: RunUploadRecord(state: .uploaded, key: "k", etag: "e"),
             expected: RunUploadRecord(state: .receiptMismatch, key: receipt.key, etag: receipt.etag, uploadedDate: uploadedDate,
                                       lastErrorCode: "ReceiptMismatch", lastError: "Another archive." + mismatchAdvice)),
        Case(testDescription: "a recorded upload outlives its receipt and wins over a stale queue", queueEntry: queued("waiting"),
             inOutbox: false, recorded: RunUploadRecord(state: .uploaded, key: "k", etag: "e"),
             expected: RunUploadRecord(state: .uploaded, key: "k", etag: "e")),
    ]

    @Test("derive", arguments: cases)
    func derive(_ scenario: Case) {
        let derived = RunUploadRecord.derive(configured: scenario.configured, finished: scenario.finished, receipt: scenario.receipt,
                                             queueEntry: scenario.queueEntry, inOutbox: scenario.inOutbox, recorded: scenario.recorded)
        #expect(derived == scenario.expected)
    }
}
