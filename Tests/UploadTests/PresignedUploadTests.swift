import Foundation
import Testing
import Upload

@Suite("PresignedUpload")
struct PresignedUploadTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func grant(_ id: String, expiresIn seconds: Double) -> UploadGrant {
        UploadGrant(id: id, url: "https://storage.example.org/\(id)", expires: now.addingTimeInterval(seconds))
    }

    static let expired = UploadFailure.classify(status: 403, code: "AccessDenied", message: "Request has expired", retryAfter: nil)
    static let serverError = UploadFailure.classify(status: 500, code: nil, message: nil, retryAfter: nil)
    static let badToken = UploadFailure(kind: .held, code: "HTTP 401", message: "token", httpStatus: 401)

    @Test("Each sequence of outcomes leads to the expected actions", arguments: [
        // The plain path: a URL, the PUT, complete.
        ([.started, .granted(grant("a", expiresIn: 600), now: now), .stored(etag: "\"e\""), .completed],
         [.requestURL, .put(grant("a", expiresIn: 600)), .complete(id: "a"), .finished(etag: "\"e\"")]),
        // A grant already expired, or about to (inside the 30 s margin): a new URL, no PUT.
        ([.started, .granted(grant("a", expiresIn: -60), now: now), .granted(grant("b", expiresIn: 10), now: now),
          .granted(grant("c", expiresIn: 600), now: now)],
         [.requestURL, .requestURL, .requestURL, .put(grant("c", expiresIn: 600))]),
        // A 403 from the PUT: a new URL; then it works.
        ([.started, .granted(grant("a", expiresIn: 600), now: now), .putFailed(expired), .granted(grant("b", expiresIn: 600), now: now),
          .stored(etag: "\"e\""), .completed],
         [.requestURL, .put(grant("a", expiresIn: 600)), .requestURL, .put(grant("b", expiresIn: 600)), .complete(id: "b"), .finished(etag: "\"e\"")]),
        // Other failures end the attempt as they are (the queue sorts them).
        ([.started, .requestFailed(badToken)], [.requestURL, .failed(badToken)]),
        ([.started, .granted(grant("a", expiresIn: 600), now: now), .putFailed(serverError)],
         [.requestURL, .put(grant("a", expiresIn: 600)), .failed(serverError)]),
        ([.started, .granted(grant("a", expiresIn: 600), now: now), .stored(etag: "\"e\""), .completeFailed(serverError)],
         [.requestURL, .put(grant("a", expiresIn: 600)), .complete(id: "a"), .failed(serverError)]),
    ] as [([PresignedUpload.Event], [PresignedUpload.Action])])
    func sequences(_ events: [PresignedUpload.Event], _ expected: [PresignedUpload.Action]) {
        var flow = PresignedUpload()
        #expect(events.map { flow.handle($0) } == expected)
    }

    @Test("After three URLs refused or expired the upload is held with a reason")
    func tooManyURLs() {
        var flow = PresignedUpload()
        _ = flow.handle(.started)
        for id in ["a", "b"] {
            _ = flow.handle(.granted(Self.grant(id, expiresIn: 600), now: Self.now))
            #expect(flow.handle(.putFailed(Self.expired)) == .requestURL)
        }
        _ = flow.handle(.granted(Self.grant("c", expiresIn: 600), now: Self.now))
        guard case .failed(let failure) = flow.handle(.putFailed(Self.expired)) else { Issue.record("not failed"); return }
        #expect(failure.kind == .held)
        #expect(failure.message.contains("refused 3 presigned URLs"))

        var stale = PresignedUpload()
        _ = stale.handle(.started)
        _ = stale.handle(.granted(Self.grant("a", expiresIn: -1), now: Self.now))
        _ = stale.handle(.granted(Self.grant("b", expiresIn: -1), now: Self.now))
        guard case .failed(let expired) = stale.handle(.granted(Self.grant("c", expiresIn: -1), now: Self.now)) else { Issue.record("not failed"); return }
        #expect(expired.kind == .held && expired.code == "URLExpired")
        #expect(expired.message.contains("clock"))
    }
}
