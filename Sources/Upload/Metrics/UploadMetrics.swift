public import Foundation
public import Metrics

/// `activetask-upload.prom` (docs/fleet.md, "Metrics"): the queue by state, the oldest waiting
/// run's age, held runs by error code, what was uploaded, and the version.
public enum UploadMetrics {
    /// The file's name in the metrics directory.
    public static let fileName = "activetask-upload.prom"
    /// The uploader's version (the packages are built together with the daemon's).
    public static let version = "0.2.0"

    /// The queue's state names in the metrics: `queued` (ready to go), `waiting` (for a retry
    /// time), `uploading`, `held` (until a reload or the hold ends).
    public static let states = ["queued", "waiting", "uploading", "held"]

    /// The file's contents for `records` and `totals` at `now`.
    public static func exposition(records: [UploadQueue.Record], totals: UploadTotals, now: Date) -> MetricsExposition {
        typealias Label = MetricFamily.Label
        var counts = Dictionary(uniqueKeysWithValues: states.map { ($0, 0) })
        var held: [String: Int] = [:]
        var oldest: Date?
        for record in records {
            let state: String
            switch record.state {
            case .waiting(let notBefore?) where notBefore > now: state = "waiting"
            case .waiting: state = "queued"
            case .uploading: state = "uploading"
            case .held:
                state = "held"
                held[record.lastFailure?.code ?? "unknown", default: 0] += 1
            case .uploaded: continue
            }
            counts[state, default: 0] += 1
            if let ended = endDate(record.entry.endDate), ended < (oldest ?? .distantFuture) { oldest = ended }
        }
        var out = MetricsExposition()
        out.buildInfo(program: "activetask-upload", version: version)
        out.gauge("activetask_upload_queue_runs", "Finished runs in the upload queue, by state.", states.map { ([Label("state", $0)], Double(counts[$0] ?? 0)) })
        out.gauge("activetask_upload_oldest_waiting_seconds", "Seconds since the oldest run not yet uploaded ended (0 when none waits).",
                  oldest.map { max(0, now.timeIntervalSince($0)) } ?? 0)
        out.gauge("activetask_upload_held_runs", "Held runs by the error code that held them.",
                  held.sorted { $0.key < $1.key }.map { ([Label("code", $0.key)], Double($0.value)) })
        out.counter("activetask_uploaded_bytes_total", "Archive bytes uploaded since the uploader started.", [([], Double(totals.bytes))])
        out.counter("activetask_uploaded_objects_total", "Archives uploaded since the uploader started.", [([], Double(totals.objects))])
        out.counter("activetask_upload_failures_total", "Failed upload attempts since the uploader started, by error code.",
                    totals.failures.sorted { $0.key < $1.key }.map { ([Label("code", $0.key)], Double($0.value)) })
        return out
    }

    /// An outbox entry's `endDate` (ISO 8601, with or without fractional seconds).
    static func endDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
