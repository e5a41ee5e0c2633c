import Testing
import UploadFormats

/// `UploadReceipt.disagreement`: when a receipt confirms the run's archive, the one rule retention
/// and the listings share (docs/upload.md, "No receipt, no deletion").
@Suite struct UploadReceiptConfirmationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var receipt: UploadReceipt
        var onDisk: Int64? = 100
        var recordedSize: Int64? = 100
        var recordedSHA256: String? = sha
        /// What the reason says, nil when the receipt confirms the archive.
        var reason: String?
    }

    static let sha = String(repeating: "ab", count: 32)
    static let other = String(repeating: "cd", count: 32)
    static func receipt(etag: String = "\"e\"", size: Int64 = 100, key: String = "s/k.zip", archiveSize: Int64? = nil,
                        archiveSHA256: String? = nil) -> UploadReceipt {
        UploadReceipt(taskRunUUID: "R", key: key, etag: etag, size: size, uploadedDate: "2026-11-25T21:30:00Z",
                      checksumSHA256: "composite-not-compared", archiveSize: archiveSize, archiveSHA256: archiveSHA256)
    }

    static let cases: [Case] = [
        Case(testDescription: "size and SHA-256 match", receipt: receipt(archiveSize: 100, archiveSHA256: sha)),
        Case(testDescription: "SHA-256 compared without regard to case", receipt: receipt(archiveSize: 100, archiveSHA256: sha.uppercased())),
        Case(testDescription: "another SHA-256, the same size", receipt: receipt(archiveSize: 100, archiveSHA256: other), reason: "SHA-256"),
        Case(testDescription: "an older uploader's receipt (no SHA-256): judged by size alone", receipt: receipt(archiveSize: 100)),
        Case(testDescription: "a run recorded before SHA-256s: judged by size alone", receipt: receipt(archiveSize: 100, archiveSHA256: other),
             recordedSHA256: nil),
        Case(testDescription: "an unencrypted receipt from before archiveSize: its size", receipt: receipt()),
        Case(testDescription: "an encrypted receipt from before archiveSize: no deletion", receipt: receipt(size: 150, key: "s/k.zip.p7m"),
             reason: "records no archive size"),
        Case(testDescription: "an encrypted receipt: archiveSize, not the copy's size", receipt: receipt(size: 150, key: "s/k.zip.p7m",
                                                                                                          archiveSize: 100, archiveSHA256: sha)),
        Case(testDescription: "another archive's size", receipt: receipt(archiveSize: 101, archiveSHA256: sha), reason: "101 bytes"),
        Case(testDescription: "no ETag", receipt: receipt(etag: "", archiveSize: 100, archiveSHA256: sha), reason: "no ETag"),
        Case(testDescription: "the archive unreadable", receipt: receipt(archiveSize: 100, archiveSHA256: sha), onDisk: nil, reason: "cannot be read"),
        Case(testDescription: "the outbox entry recorded another size", receipt: receipt(archiveSize: 100, archiveSHA256: sha), recordedSize: 99,
             reason: "outbox entry"),
        Case(testDescription: "the outbox entry gone", receipt: receipt(archiveSize: 100, archiveSHA256: sha), recordedSize: nil),
    ]

    @Test("disagreement", arguments: cases)
    func disagreement(_ scenario: Case) {
        let reason = scenario.receipt.disagreement(archiveSize: scenario.onDisk, recordedSize: scenario.recordedSize,
                                                   recordedSHA256: scenario.recordedSHA256)
        if let expected = scenario.reason {
            #expect(reason?.contains(expected) == true, "\(reason ?? "nil")")
        } else {
            #expect(reason == nil)
        }
    }
}
