import Foundation
import Metrics
import Testing
import Upload

/// `activetask-upload.prom` from the queue (docs/fleet.md, "The metrics"): each record's state
/// under its metric name, the oldest run not uploaded, held runs by their error code.
@Suite("Upload: the metrics file's contents")
struct UploadMetricsTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func record(_ state: UploadQueue.State, ended: String = "2027-01-15T08:00:00Z", code: String? = nil) -> UploadQueue.Record {
        var queue = UploadQueue()
        let entry = OutboxEntry(taskRunUUID: UUID(), taskIdentifier: "Tapping", archive: "runs/x/x.zip", size: 10, finishReason: "completed", endDate: ended)
        _ = queue.handle(.scanned([entry], now: now))
        var record = queue.records.values.first!
        record.state = state
        record.lastFailure = code.map { UploadFailure(kind: .held, code: $0, message: "") }
        return record
    }

    static func lines(_ records: [UploadQueue.Record], totals: UploadTotals = UploadTotals()) -> [String] {
        UploadMetrics.exposition(records: records, totals: totals, now: now).text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
    }

    @Test("Each state is counted under its name; every state has a line", arguments: [
        ([UploadQueue.State](), [0, 0, 0, 0]),
        ([.waiting(notBefore: nil)], [1, 0, 0, 0]),
        ([.waiting(notBefore: now.addingTimeInterval(-5))], [1, 0, 0, 0]),
        ([.waiting(notBefore: now.addingTimeInterval(60))], [0, 1, 0, 0]),
        ([.uploading, .uploading, .held(until: now)], [0, 0, 2, 1]),
        ([.uploaded], [0, 0, 0, 0]),
    ] as [([UploadQueue.State], [Int])])
    func states(states: [UploadQueue.State], counts: [Int]) {
        let lines = Self.lines(states.map { Self.record($0) })
        for (state, count) in zip(UploadMetrics.states, counts) {
            #expect(lines.contains("activetask_upload_queue_runs{state=\"\(state)\"} \(count)"), "\(state): \(lines)")
        }
    }

    @Test("The oldest run not uploaded gives the age; uploaded runs and an empty queue give 0", arguments: [
        ([(UploadQueue.State.waiting(notBefore: nil), "2027-01-15T07:00:00Z"), (.held(until: now), "2027-01-15T07:30:00.250Z")], 1_800_000_000 - 1_799_996_400),
        ([(.uploaded, "2027-01-15T07:00:00Z")], 0),
        ([], 0),
    ] as [([(UploadQueue.State, String)], Int)])
    func oldest(records: [(UploadQueue.State, String)], seconds: Int) {
        let lines = Self.lines(records.map { Self.record($0.0, ended: $0.1) })
        #expect(lines.contains("activetask_upload_oldest_waiting_seconds \(seconds)"), "\(lines)")
    }

    @Test("Held runs by error code, and the totals")
    func heldAndTotals() {
        var totals = UploadTotals()
        totals.count(.succeeded(UUID(), now: Self.now), size: 1234)
        totals.count(.failed(UUID(), UploadFailure(kind: .transient, code: "ConnectionRefused", message: ""), now: Self.now, jitter: 0), size: nil)
        let lines = Self.lines([
            Self.record(.held(until: Self.now), code: "SignatureDoesNotMatch"),
            Self.record(.held(until: Self.now), code: "SignatureDoesNotMatch"),
            Self.record(.held(until: Self.now), code: "NoSuchBucket"),
        ], totals: totals)
        #expect(lines.contains(#"activetask_upload_held_runs{code="NoSuchBucket"} 1"#))
        #expect(lines.contains(#"activetask_upload_held_runs{code="SignatureDoesNotMatch"} 2"#))
        #expect(lines.contains("activetask_uploaded_bytes_total 1234"))
        #expect(lines.contains("activetask_uploaded_objects_total 1"))
        #expect(lines.contains(#"activetask_upload_failures_total{code="ConnectionRefused"} 1"#))
        #expect(lines.contains(#"activetask_build_info{program="activetask-upload",version="\#(UploadMetrics.version)"} 1"#))
    }
}
