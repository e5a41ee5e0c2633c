import Foundation
import TestSupport
import Testing

/// `activetaskctl uploads` on a data directory written by hand as activetaskd (the outbox) and
/// activetask-upload (receipts, `uploads/queue.json`) write it (docs/upload.md, "Seeing the queue").
@Suite struct UploadsCommandTests {
    static let first = "11111111-1111-1111-1111-111111111111"
    static let second = "22222222-2222-2222-2222-222222222222"
    static let done = "33333333-3333-3333-3333-333333333333"
    static let mismatched = "44444444-4444-4444-4444-444444444444"

    static func entry(_ uuid: String, end: String, size: Int = 1572864, sha256: String? = nil) -> String {
        let digest = sha256.map { #", "sha256": "\#($0)""# } ?? ""
        return #"{"taskRunUUID": "\#(uuid)", "taskIdentifier": "Walk", "archive": "runs/\#(uuid)/\#(uuid).zip", "size": \#(size)\#(digest), "finishReason": "completed", "endDate": "\#(end)"}"#
    }

    /// Four finished runs: one uploaded (a receipt for its archive), one with a receipt for
    /// another archive (its SHA-256 differs), one held by the uploader, one it has not seen.
    static func dataDirectory(_ scratch: ScratchDirectory) throws -> String {
        for folder in ["data/outbox", "data/uploads", "data/runs/\(done)", "data/runs/\(mismatched)"] {
            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        _ = try scratch.write("data/outbox/\(second).json", entry(second, end: "2026-11-25T10:00:00Z"))
        _ = try scratch.write("data/outbox/\(first).json", entry(first, end: "2026-11-25T09:00:00Z"))
        let recorded = String(repeating: "ab", count: 32)
        for uuid in [done, mismatched] {
            _ = try scratch.write("data/runs/\(uuid)/\(uuid).zip", String(repeating: "z", count: 1000))
            let end = uuid == done ? "2026-11-25T08:00:00Z" : "2026-11-25T07:00:00Z"
            _ = try scratch.write("data/outbox/\(uuid).json", entry(uuid, end: end, size: 1000, sha256: recorded))
            let uploaded = uuid == done ? recorded : String(repeating: "0", count: 64)
            _ = try scratch.write("data/uploads/\(uuid).uploaded.json",
                                  #"{"taskRunUUID": "\#(uuid)", "key": "s/\#(uuid).zip", "etag": "\"e\"", "size": 1000, "archiveSize": 1000, "archiveSHA256": "\#(uploaded)", "uploadedDate": "2026-11-25T12:00:00Z"}"#)
        }
        _ = try scratch.write("data/outbox/broken.json", "{")
        _ = try scratch.write("data/uploads/queue.json", """
            {"updated": "2026-11-25T11:00:00Z", "runs": [
              {"taskRunUUID": "\(first)", "taskIdentifier": "Walk", "archive": "runs/\(first)/\(first).zip", "size": 1572864,
               "state": "held", "attempts": 1, "lastErrorCode": "SignatureDoesNotMatch", "lastError": "check the secret", "nextTry": "2026-11-25T17:00:00Z"}
            ]}
            """)
        return scratch.url.appendingPathComponent("data").path
    }

    @Test("The queue oldest first: the uploader's state, a run it has not seen as new, a receipt for another archive as receiptMismatch (one for its archive not listed), an unreadable entry named")
    func listsTheQueue() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let data = try Self.dataDirectory(scratch)
        let text = try await CommandRunner.run(["uploads", "--data-dir", data])
        #expect(text == .init(status: 0, standardOutput: """
            RUN                                   TASK  SIZE     STATE            ATTEMPTS  NEXT TRY              LAST ERROR
            \(Self.mismatched)  Walk  1000 B   receiptMismatch  0         -                     ReceiptMismatch: The upload receipt is for an archive with SHA-256 \(String(repeating: "0", count: 64)); the run recorded \(String(repeating: "ab", count: 32)). Remove the receipt to have the run uploaded again.
            \(Self.first)  Walk  1.5 MiB  held             1         2026-11-25T17:00:00Z  SignatureDoesNotMatch: check the secret
            \(Self.second)  Walk  1.5 MiB  new              0         -                     -
            activetask-upload last wrote its queue at 2026-11-25T11:00:00Z.
            The outbox entry \(data)/outbox/broken.json cannot be read; remove or repair it.

            """, standardError: ""))

        let json = try await CommandRunner.run(["uploads", "--data-dir", data, "--json"])
        #expect(json.status == 0, "\(json.standardError)")
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let uploads = listing["uploads"] as? [[String: Any]] ?? []
        #expect(uploads.map { $0["taskRunUUID"] as? String } == [Self.mismatched, Self.first, Self.second])
        #expect(uploads.map { $0["state"] as? String } == ["receiptMismatch", "held", "new"])
        #expect(uploads.map { $0["lastErrorCode"] as? String } == ["ReceiptMismatch", "SignatureDoesNotMatch", nil])
        #expect(listing["uploaderUpdated"] as? String == "2026-11-25T11:00:00Z")
        #expect(listing["unreadable"] as? [String] == ["broken.json"])
    }

    @Test("Without an outbox it says uploads are not configured and where, and fails")
    func notConfigured() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let result = try await CommandRunner.run(["uploads", "--data-dir", scratch.url.path])
        #expect(result.status == 1 && result.standardOutput.isEmpty)
        #expect(result.standardError.contains("uploads are not configured for \(scratch.url.path)"), "\(result.standardError)")
        #expect(result.standardError.contains("docs/upload.md"), "\(result.standardError)")
    }

    @Test("An empty queue says so")
    func emptyQueue() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("outbox"), withIntermediateDirectories: true)
        let result = try await CommandRunner.run(["uploads", "--data-dir", scratch.url.path])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("No runs are waiting to be uploaded.\nactivetask-upload has not written its queue yet"), "\(result.standardOutput)")
    }
}
