import Foundation
import Testing
import Upload

/// `uploads/queue.json` from the queue's records, and what `activetaskctl uploads` lists from it
/// and the outbox (docs/upload.md, "Seeing the queue").
@Suite("The queue on disk and its listing")
struct UploadQueueSnapshotTests {
    static let t0 = UploadQueueTests.t0
    static func entry(_ n: Int, _ ended: String) -> OutboxEntry { UploadQueueTests.entry(n, ended: ended) }

    @Test("Each state as the uploader writes it: held and waiting with their next try and last error, uploading, uploaded")
    func snapshotOfEveryState() {
        var queue = UploadQueue(parallel: 1)
        let (first, second, third) = (Self.entry(1, "2026-11-25T08:00:00Z"), Self.entry(2, "2026-11-25T09:00:00Z"), Self.entry(3, "2026-11-25T10:00:00Z"))
        _ = queue.handle(.scanned([third, second, first], now: Self.t0))
        _ = queue.handle(.failed(first.taskRunUUID, UploadQueueTests.held, now: Self.t0, jitter: 0))
        _ = queue.handle(.failed(second.taskRunUUID, UploadQueueTests.transient, now: Self.t0, jitter: 0))
        let snapshot = UploadQueueSnapshot(records: queue.records.values, now: Self.t0)
        #expect(snapshot.updated == AmzDate.iso8601(Self.t0))
        #expect(snapshot.runs.map(\.taskRunUUID) == [first, second, third].map(\.taskRunUUID), "oldest end first")
        #expect(snapshot.runs.map(\.state) == ["held", "waiting", "uploading"])
        #expect(snapshot.runs.map(\.attempts) == [1, 1, 0])
        #expect(snapshot.runs.map(\.lastErrorCode) == ["SignatureDoesNotMatch", "HTTP 500", nil])
        #expect(snapshot.runs[0].nextTry.map { $0 > snapshot.updated } == true && snapshot.runs[1].nextTry.map { $0 > snapshot.updated } == true)
        #expect(snapshot.runs[2].nextTry == nil)
        _ = queue.handle(.succeeded(third.taskRunUUID, now: Self.t0))
        #expect(UploadQueueSnapshot(records: queue.records.values, now: Self.t0).runs.last?.state == "uploaded")
    }

    @Test("The listing: the outbox's runs oldest first, the uploader's state where it has one, new where not")
    func listing() {
        let (first, second) = (Self.entry(1, "2026-11-25T08:00:00Z"), Self.entry(2, "2026-11-25T09:00:00Z"))
        let held = UploadQueueSnapshot.Run(taskRunUUID: first.taskRunUUID, taskIdentifier: "Walk", archive: first.archive, size: 100,
                                           state: "held", attempts: 2, lastErrorCode: "AccessDenied", lastError: "m")
        // A run the snapshot still has but the outbox no longer holds (uploaded, receipt written) is not listed.
        let gone = UploadQueueSnapshot.Run(taskRunUUID: UUID(), taskIdentifier: "Walk", archive: "x", size: 1, state: "uploaded", attempts: 0)
        let runs = UploadQueueListing.runs(pending: [second, first], snapshot: UploadQueueSnapshot(updated: "t", runs: [gone, held]))
        #expect(runs.map(\.taskRunUUID) == [first.taskRunUUID, second.taskRunUUID])
        #expect(runs.map(\.state) == ["held", "new"])
        #expect(runs[0].attempts == 2 && runs[1].attempts == 0)
        #expect(UploadQueueListing.runs(pending: [first], snapshot: nil).map(\.state) == ["new"])
    }

    @Test("Sizes as people read them", arguments: [
        (0 as Int64, "0 B"), (1023, "1023 B"), (1024, "1.0 KiB"), (1_572_864, "1.5 MiB"), (209_715_200, "200.0 MiB"),
        (5_368_709_120, "5.0 GiB"), (Int64.max, "8388608.0 TiB"),
    ])
    func sizes(_ bytes: Int64, _ text: String) {
        #expect(UploadQueueListing.size(bytes) == text)
    }
}
