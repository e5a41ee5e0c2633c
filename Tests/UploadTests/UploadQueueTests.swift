import Foundation
import Testing
import Upload

@Suite("UploadQueue")
struct UploadQueueTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func entry(_ n: Int, ended: String = "2026-11-25T10:00:00Z") -> OutboxEntry {
        OutboxEntry(taskRunUUID: UUID(uuidString: "00000000-0000-4000-8000-00000000000\(n)")!, taskIdentifier: "Walk",
                    archive: "runs/\(n)/\(n).zip", size: 100, finishReason: "completed", endDate: ended)
    }

    @Test("Errors are sorted into retryable, slow-down and held", arguments: [
        (500, nil as String?, nil as String?, UploadFailure.Kind.transient),
        (503, "SlowDown", "2", .slowDown),
        (503, nil, nil, .transient),
        (429, nil, nil, .slowDown),
        (408, nil, nil, .transient),
        (400, "RequestTimeout", nil, .transient),
        (403, "SignatureDoesNotMatch", nil, .held),
        (403, "InvalidAccessKeyId", nil, .held),
        (403, "AccessDenied", nil, .held),
        (404, "NoSuchBucket", nil, .held),
        (400, "EntityTooSmall", nil, .held),
    ])
    func classify(_ status: Int, _ code: String?, _ retryAfter: String?, _ kind: UploadFailure.Kind) {
        let failure = UploadFailure.classify(status: status, code: code, message: "m", retryAfter: retryAfter)
        #expect(failure.kind == kind)
        #expect(failure.code == code ?? "HTTP \(status)")
        if let retryAfter { #expect(failure.retryAfterSeconds == Double(retryAfter)) }
    }

    static let transient = UploadFailure(kind: .transient, code: "HTTP 500", message: "m")
    static let slow = UploadFailure(kind: .slowDown, code: "SlowDown", message: "m")
    static let held = UploadFailure(kind: .held, code: "SignatureDoesNotMatch", message: "m")

    @Test("Backoff doubles from 2 s, is capped at 600 s, keeps jitter in the upper half and honours Retry-After", arguments: [
        (1, transient, 0.0, 1.0),
        (1, transient, 0.999_999, 2.0),
        (2, transient, 0.0, 2.0),
        (4, transient, 1.0, 16.0),
        (12, transient, 1.0, 600.0),
        (12, transient, 0.0, 300.0),
        (1, slow, 1.0, 8.0),
        (1, UploadFailure(kind: .transient, code: "HTTP 503", message: "m", retryAfterSeconds: 30), 1.0, 30.0),
        (1, UploadFailure(kind: .slowDown, code: "SlowDown", message: "m", retryAfterSeconds: 99_999), 0.0, 3600.0),
        (1, held, 0.5, 6 * 3600.0),
    ])
    func backoff(_ failures: Int, _ failure: UploadFailure, _ jitter: Double, _ expected: Double) {
        #expect(abs(RetryPolicy().delay(afterFailures: failures, failure: failure, jitter: jitter) - expected) < 0.001)
    }

    @Test("Runs start oldest first, one at a time, and a success confirms the run")
    func order() {
        var queue = UploadQueue()
        let older = Self.entry(1, ended: "2026-11-25T09:00:00Z"), newer = Self.entry(2)
        #expect(queue.handle(.scanned([newer, older], now: Self.t0)) == [.upload(older, attempt: 1)])
        #expect(queue.handle(.succeeded(older.taskRunUUID, now: Self.t0)) == [.confirm(older), .upload(newer, attempt: 1)])
        #expect(queue.handle(.succeeded(newer.taskRunUUID, now: Self.t0)) == [.confirm(newer)])
        // Confirmed runs leave the outbox scan (they have receipts) and the queue.
        #expect(queue.handle(.scanned([], now: Self.t0)) == [])
        #expect(queue.records.isEmpty)
    }

    @Test("A transient failure retries after its backoff; a held one waits for a reload")
    func failures() {
        var queue = UploadQueue(parallel: 2)
        let a = Self.entry(1), b = Self.entry(2)
        #expect(queue.handle(.scanned([a, b], now: Self.t0)) == [.upload(a, attempt: 1), .upload(b, attempt: 1)])
        let retryAt = Self.t0.addingTimeInterval(2)
        #expect(queue.handle(.failed(a.taskRunUUID, Self.transient, now: Self.t0, jitter: 1)) == [.retry(a, Self.transient, retryAt: retryAt), .wake(at: retryAt)])
        let heldUntil = Self.t0.addingTimeInterval(6 * 3600)
        #expect(queue.handle(.failed(b.taskRunUUID, Self.held, now: Self.t0, jitter: 0)) == [.hold(b, Self.held, until: heldUntil), .wake(at: retryAt)])
        #expect(queue.handle(.tick(now: Self.t0.addingTimeInterval(1))) == [.wake(at: retryAt)])
        #expect(queue.handle(.tick(now: retryAt)) == [.upload(a, attempt: 2), .wake(at: heldUntil)])
        #expect(queue.counts.held == 1)
        #expect(queue.handle(.reloaded(now: retryAt)) == [.upload(b, attempt: 2)])
        #expect(queue.records[b.taskRunUUID]?.lastFailure == Self.held)
    }

    @Test("A held run is tried again by itself once its pause is over")
    func heldPause() {
        var queue = UploadQueue()
        let a = Self.entry(1)
        _ = queue.handle(.scanned([a], now: Self.t0))
        _ = queue.handle(.failed(a.taskRunUUID, Self.held, now: Self.t0, jitter: 0))
        #expect(queue.handle(.scanned([a], now: Self.t0.addingTimeInterval(6 * 3600))) == [.upload(a, attempt: 2)])
    }

    @Test("An entry removed from the outbox leaves the queue, unless it is being uploaded")
    func removed() {
        var queue = UploadQueue()
        let a = Self.entry(1), b = Self.entry(2)
        _ = queue.handle(.scanned([a, b], now: Self.t0))
        #expect(queue.handle(.scanned([], now: Self.t0)) == [])
        #expect(queue.records.keys.sorted { $0.uuidString < $1.uuidString } == [a.taskRunUUID])
        // An outcome for a run the queue no longer knows changes nothing.
        #expect(queue.handle(.succeeded(b.taskRunUUID, now: Self.t0)) == [])
    }
}
