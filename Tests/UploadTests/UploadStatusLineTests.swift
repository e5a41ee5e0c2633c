import Foundation
import Testing
@testable import Upload

/// The status line systemd shows for activetask-upload.
@Suite("Upload status line")
struct UploadStatusLineTests {
    static func record(_ state: UploadQueue.State) -> UploadQueue.Record {
        let uuid = UUID()
        let entry = OutboxEntry(taskRunUUID: uuid, taskIdentifier: "Walk", archive: "runs/\(uuid)/\(uuid).zip", size: 1,
                                finishReason: "completed", endDate: "2026-11-25T21:30:00Z")
        return UploadQueue.Record(entry: entry, state: state, failures: 0, lastFailure: nil)
    }

    static let mebibyte: Int64 = 1 << 20

    @Test("Counts per state and the bytes confirmed of the uploads under way", arguments: [
        ([], [], "0 waiting, 0 uploading, 0 held"),
        ([.waiting(notBefore: nil), .waiting(notBefore: Date()), .held(until: Date()), .uploaded], [], "2 waiting, 0 uploading, 1 held"),
        ([.waiting(notBefore: nil), .uploading], [UploadProgress.Transfer(sent: mebibyte, total: 4 * mebibyte)], "1 waiting, uploading 1.0 of 4.0 MiB, 0 held"),
        ([.uploading], [UploadProgress.Transfer(sent: 0, total: 200 * mebibyte)], "0 waiting, uploading 0.0 of 200 MiB, 0 held"),
        ([.uploading, .uploading], [UploadProgress.Transfer(sent: 8 * mebibyte, total: 24 * mebibyte), UploadProgress.Transfer(sent: 0, total: 16 * mebibyte)],
         "0 waiting, uploading 2 (8.0 of 40 MiB), 0 held"),
        ([.uploading], [UploadProgress.Transfer(sent: 300_000, total: 600_000)], "0 waiting, uploading 293 of 586 KiB, 0 held"),
        ([.uploading], [UploadProgress.Transfer(sent: 5 << 30, total: 12 << 30)], "0 waiting, uploading 5.0 of 12 GiB, 0 held"),
        ([.uploading], [UploadProgress.Transfer(sent: 0, total: 500)], "0 waiting, uploading 0 of 500 bytes, 0 held"),
        // Between the queue saying uploading and the uploader reporting the size.
        ([.uploading], [], "0 waiting, 1 uploading, 0 held"),
    ] as [([UploadQueue.State], [UploadProgress.Transfer], String)])
    func line(states: [UploadQueue.State], transfers: [UploadProgress.Transfer], expected: String) {
        #expect(UploadStatusLine.text(records: states.map(Self.record), transfers: transfers) == expected)
    }
}
