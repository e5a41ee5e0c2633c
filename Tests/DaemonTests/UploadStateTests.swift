import Foundation
import Glibc
import Testing
import TestSupport

/// A run's upload state through the real daemon (docs/protocol.md, "Uploads"; docs/runs.md): with
/// `<data-dir>/outbox/` present a finished run is `queued` in `runs.list` and `run.result`, the
/// uploader's queue file makes it `held` with its error, a receipt for another archive
/// `receiptMismatch`, and its receipt `uploaded` with key and ETag, which the manifest then records.
@Suite("activetaskd: upload state")
struct UploadStateTests {
    static func entry(_ client: LineClient, _ uuid: String) throws -> [String: Any] {
        let runs = try #require(try client.result("runs.list")["runs"] as? [[String: Any]])
        return try #require(runs.first { $0["taskRunUUID"] as? String == uuid })
    }

    @Test("runs.list and run.result carry upload: queued, then held from the uploader's queue, receiptMismatch for another archive's receipt, then uploaded from its receipt")
    func uploadState() async throws {
        let fixture = try await DaemonFixture("uploadstate")
        let outbox = fixture.dataDirectory.appendingPathComponent("outbox")
        let uploads = fixture.dataDirectory.appendingPathComponent("uploads")
        let daemon = try await fixture.start()
        defer { daemon.send(SIGTERM) }
        let task = try fixture.write(task: RetentionTests.quickTask, name: "quick")

        // Before uploads are configured: no upload member at all.
        let before = try await fixture.ctl("run", task, "--auto", "--json")
        #expect(before.status == 0, "\(before.standardError)")
        let unconfigured = try #require(try RunFiles.lastLine(of: before.standardOutput)["taskRunUUID"] as? String)
        try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)

        let output = try await fixture.ctl("run", task, "--auto", "--json")
        #expect(output.status == 0, "\(output.standardError)")
        let uuid = try #require(try RunFiles.lastLine(of: output.standardOutput)["taskRunUUID"] as? String)
        #expect(FileManager.default.fileExists(atPath: outbox.appendingPathComponent("\(uuid).json").path))

        let client = try LineClient(path: fixture.socket)
        #expect(try Self.entry(client, unconfigured)["upload"] == nil)
        #expect((try Self.entry(client, uuid)["upload"] as? [String: Any])?["state"] as? String == "queued")
        let queuedResult = try client.result("run.result", ["taskRunUUID": uuid])
        #expect((queuedResult["upload"] as? [String: Any])?["state"] as? String == "queued")
        let manifestURL = fixture.dataDirectory.appendingPathComponent("runs/\(uuid)/run.json")
        #expect((try RunFiles.object(manifestURL)["upload"] as? [String: Any])?["state"] as? String == "queued")

        // The uploader's queue says held: the daemon reads it, and leaves the manifest alone.
        let queue: [String: Any] = ["updated": "2026-11-25T11:00:00Z", "runs": [[
            "taskRunUUID": uuid, "taskIdentifier": "Quick", "archive": "runs/\(uuid)/\(uuid).zip", "size": 100, "state": "held",
            "attempts": 1, "lastErrorCode": "SignatureDoesNotMatch", "lastError": "Check the secret.", "nextTry": "2026-11-25T17:00:00Z",
        ] as [String: Any]]]
        try JSONSerialization.data(withJSONObject: queue).write(to: uploads.appendingPathComponent("queue.json"))
        let held = try #require(try Self.entry(client, uuid)["upload"] as? [String: Any])
        #expect(held["state"] as? String == "held")
        #expect(held["attempts"] as? Int == 1)
        #expect(held["lastErrorCode"] as? String == "SignatureDoesNotMatch")
        #expect(held["lastError"] as? String == "Check the secret.")
        #expect((held["nextTry"] as? String).flatMap(Self.date) == Self.date("2026-11-25T17:00:00Z"))
        #expect((try RunFiles.object(manifestURL)["upload"] as? [String: Any])?["state"] as? String == "queued")

        // A receipt for the archive's size but another archive's SHA-256: retention would keep
        // the run, so the answers and activetaskctl say receiptMismatch with the reason, never
        // uploaded, and the manifest is left alone.
        let archive = fixture.dataDirectory.appendingPathComponent("runs/\(uuid)/\(uuid).zip")
        let archiveSize = try #require((try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? NSNumber)?.intValue)
        let sha256 = try #require(try CommandRunner.sha256sum(archive))
        #expect((try RunFiles.object(manifestURL)["archiveSHA256"] as? String) == sha256)
        var receipt: [String: Any] = ["taskRunUUID": uuid, "key": "study/tablet/2026-11-25/Quick/\(uuid).zip", "etag": "\"9a0364b9\"",
                                      "size": archiveSize, "archiveSize": archiveSize, "archiveSHA256": String(repeating: "0", count: 64),
                                      "uploadedDate": "2026-11-25T12:00:00Z"]
        try JSONSerialization.data(withJSONObject: receipt).write(to: uploads.appendingPathComponent("\(uuid).uploaded.json"))
        let mismatch = try #require(try client.result("run.result", ["taskRunUUID": uuid])["upload"] as? [String: Any])
        #expect(mismatch["state"] as? String == "receiptMismatch")
        #expect(mismatch["lastErrorCode"] as? String == "ReceiptMismatch")
        #expect((mismatch["lastError"] as? String)?.contains("SHA-256") == true, "\(mismatch)")
        #expect((try Self.entry(client, uuid)["upload"] as? [String: Any])?["state"] as? String == "receiptMismatch")
        #expect((try RunFiles.object(manifestURL)["upload"] as? [String: Any])?["state"] as? String == "queued")
        let mismatchRuns = try await fixture.ctl("runs")
        #expect(mismatchRuns.standardOutput.split(separator: "\n").contains { $0.hasPrefix("\(uuid)\t") && $0.hasSuffix("\treceiptMismatch") },
                "\(mismatchRuns.standardOutput)")

        // The receipt for this archive: uploaded with key and ETag, in the answers and durably in
        // the manifest.
        receipt["archiveSHA256"] = sha256
        try JSONSerialization.data(withJSONObject: receipt).write(to: uploads.appendingPathComponent("\(uuid).uploaded.json"))
        let result = try client.result("run.result", ["taskRunUUID": uuid])
        let uploaded = try #require(result["upload"] as? [String: Any])
        #expect(uploaded["state"] as? String == "uploaded")
        #expect(uploaded["key"] as? String == "study/tablet/2026-11-25/Quick/\(uuid).zip")
        #expect(uploaded["etag"] as? String == "\"9a0364b9\"")
        #expect((uploaded["uploadedDate"] as? String).flatMap(Self.date) == Self.date("2026-11-25T12:00:00Z"))
        #expect(uploaded["lastError"] == nil)
        let recorded = try #require(try RunFiles.object(manifestURL)["upload"] as? [String: Any])
        #expect(recorded["state"] as? String == "uploaded")
        #expect(recorded["key"] as? String == "study/tablet/2026-11-25/Quick/\(uuid).zip")
        #expect((try Self.entry(client, uuid)["upload"] as? [String: Any])?["state"] as? String == "uploaded")

        // activetaskctl: the last UPLOAD column, and the member in --json and result.
        let runs = try await fixture.ctl("runs")
        let lines = runs.standardOutput.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("\(uuid)\tcompleted\tQuick") && $0.hasSuffix("\tuploaded") }, "\(runs.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("\(unconfigured)\tcompleted\tQuick") && $0.hasSuffix("\t-") }, "\(runs.standardOutput)")
        let json = try await fixture.ctl("runs", "--json")
        #expect(json.standardOutput.contains("\"uploaded\""), "\(json.standardOutput)")
        let printed = try await fixture.ctl("result", uuid)
        let printedUpload = try JSONSerialization.jsonObject(with: Data(printed.standardOutput.utf8)) as? [String: Any]
        #expect((printedUpload?["upload"] as? [String: Any])?["etag"] as? String == "\"9a0364b9\"", "\(printed.standardOutput)")
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}
