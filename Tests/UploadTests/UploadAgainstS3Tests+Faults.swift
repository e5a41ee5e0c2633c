import Foundation
import Glibc
import TestSupport
import Testing
import Upload

/// Network faults between activetask-upload and moto, made by the tests' own loopback proxy
/// (`FaultProxy`, Support/fault_proxy.py): a connection reset in the middle of a part, 500 and
/// 503 SlowDown answers with `Retry-After`, a stalled read, the server gone for 30 s. After each,
/// the archive is read back with boto3 and compared byte for byte, and moto holds exactly one
/// object and no unfinished multipart upload.
extension UploadAgainstS3Tests {
    /// Waits (up to `seconds`) for the run's receipt, then checks the object against the archive
    /// and that the bucket holds it alone, with no unfinished multipart upload.
    func expectArrived(_ run: (entry: OutboxEntry, bytes: Data), within seconds: Double, log name: String, proxy: FaultProxy,
                       sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let arrived = await waitUntil(seconds) { FileManager.default.fileExists(atPath: receipt(run.entry).path) }
        #expect(arrived, "no receipt within \(seconds) s; the log:\n\(log(name))\nthe proxy's log:\n\(proxy.logText)", sourceLocation: sourceLocation)
        guard arrived else { return }
        let object = try await moto.object(key(run.entry), scratch: scratch.url)
        #expect(object.data == run.bytes, "the object differs from the archive", sourceLocation: sourceLocation)
        let stored = try JSONDecoder().decode(UploadReceipt.self, from: Data(contentsOf: receipt(run.entry)))
        #expect(stored.etag == object.etag, sourceLocation: sourceLocation)
    }

    /// The requests the proxy logged for `target` (a substring), in order, without the answers.
    func requests(_ proxy: FaultProxy, _ target: String, method: String = "PUT") -> [FaultProxy.Record] {
        proxy.records().filter { $0.event == nil && $0.action != "answer" && $0.method == method && $0.target.contains(target) }
    }

    @Test("A connection reset in the middle of a part: the upload resumes and the object arrives intact, one object, no unfinished upload")
    func resetMidPart() async throws {
        let proxy = try await FaultProxy.start(upstreamPort: moto.port, scratch: scratch.url)
        defer { proxy.stop() }
        let run = try finishedRun(size: 2 * Self.partSize + 100_000, seed: 21)
        // The second part's connection is reset after 1 MiB of its 5 MiB.
        try proxy.configure(rules: [["method": "PUT", "contains": "partNumber=2&", "times": 1, "action": "reset", "afterBytes": 1 << 20]])
        let pid = try startUploader(secret: moto.secretAccessKey, options: ["--multipart-threshold", "1048576"], endpoint: proxy.endpoint, log: "reset.log")
        defer { stopUploader(pid) }
        try await expectArrived(run, within: 60, log: "reset.log", proxy: proxy)

        let secondPart = requests(proxy, "partNumber=2&")
        #expect(secondPart.map(\.action) == ["reset", "forward"], "the second part's requests: \(secondPart)")
        #expect(log("reset.log").contains("Resuming a multipart upload."))
        let object = try await moto.object(key(run.entry), scratch: scratch.url)
        #expect(object.etag.hasSuffix("-3\""), "a multipart ETag of 3 parts, not \(object.etag)")
        let listing = try await moto.listing(prefix: "pd-study/")
        #expect(listing.keys == [key(run.entry)])
        #expect(listing.uploads.isEmpty, "unfinished uploads: \(listing.uploads)")
    }

    @Test("500 InternalError and 503 SlowDown with Retry-After: the next attempt comes no earlier than the server said")
    func retryAfter() async throws {
        let proxy = try await FaultProxy.start(upstreamPort: moto.port, scratch: scratch.url)
        defer { proxy.stop() }
        let internalError = try finishedRun(size: 50_000, seed: 22)
        let slowDown = try finishedRun(size: 60_000, seed: 23)
        // Retry-After above the backoff's own delay, so that only honouring it explains the wait:
        // a first transient failure waits 1–2 s, a first SlowDown 4–8 s.
        try proxy.configure(rules: [
            ["method": "PUT", "contains": internalError.entry.taskRunUUID.uuidString, "times": 1, "action": "status",
             "status": 500, "code": "InternalError", "retryAfter": 3],
            ["method": "PUT", "contains": slowDown.entry.taskRunUUID.uuidString, "times": 1, "action": "status",
             "status": 503, "code": "SlowDown", "retryAfter": 9],
        ])
        let pid = try startUploader(secret: moto.secretAccessKey, endpoint: proxy.endpoint, log: "retry-after.log")
        defer { stopUploader(pid) }
        try await expectArrived(internalError, within: 60, log: "retry-after.log", proxy: proxy)
        try await expectArrived(slowDown, within: 60, log: "retry-after.log", proxy: proxy)

        for (run, seconds, code) in [(internalError, 3.0, "InternalError"), (slowDown, 9.0, "SlowDown")] {
            let puts = requests(proxy, run.entry.taskRunUUID.uuidString)
            #expect(puts.map(\.action) == ["status", "forward"], "\(code): \(puts)")
            guard puts.count == 2 else { continue }
            let waited = puts[1].time - puts[0].time
            // Never before Retry-After (0.1 s for the clock's rounding); the upper bound only
            // says the retry was not lost.
            #expect(waited >= seconds - 0.1 && waited < seconds + 15, "\(code) with Retry-After \(seconds) s was retried after \(waited) s")
            #expect(log("retry-after.log").contains(code))
        }
    }

    @Test("A stalled read (the server stops reading mid-body): the transfer is abandoned after stallSeconds and retried")
    func stalledRead() async throws {
        let proxy = try await FaultProxy.start(upstreamPort: moto.port, scratch: scratch.url)
        defer { proxy.stop() }
        let run = try finishedRun(size: 3 << 20, seed: 24)
        // The proxy takes 256 KiB and then holds the connection for 30 s without reading: with
        // the default 60 s stall time the retry could only come after the proxy lets go.
        try proxy.configure(rules: [["method": "PUT", "contains": run.entry.taskRunUUID.uuidString, "times": 1, "action": "stall",
                                     "afterBytes": 256 << 10, "seconds": 30]])
        let pid = try startUploader(secret: moto.secretAccessKey, options: ["--stall-seconds", "2"], endpoint: proxy.endpoint, log: "stall.log")
        defer { stopUploader(pid) }
        try await expectArrived(run, within: 60, log: "stall.log", proxy: proxy)

        let puts = requests(proxy, run.entry.taskRunUUID.uuidString)
        #expect(puts.map(\.action) == ["stall", "forward"], "\(puts)")
        if puts.count == 2 {
            // 2 s of stall, then a first backoff of 1–2 s; well under the proxy's 30 s hold.
            let waited = puts[1].time - puts[0].time
            #expect(waited >= 2.9 && waited < 15, "the stalled PUT was retried after \(waited) s")
        }
        // libcurl's time-out (CURLE_OPERATION_TIMEDOUT, 28), sorted as retryable.
        #expect(log("stall.log").contains("curl 28"), "the log:\n\(log("stall.log"))")
    }

    @Test("The server gone for 30 s in the middle of a multipart upload: everything arrives once it is back")
    func outage() async throws {
        let proxy = try await FaultProxy.start(upstreamPort: moto.port, scratch: scratch.url)
        defer { proxy.stop() }
        let multipart = try finishedRun(size: 3 * Self.partSize + 5_000, seed: 25)
        let progress = dataDirectory.appendingPathComponent("uploads/\(multipart.entry.taskRunUUID.uuidString).multipart.json")
        // The answer to part 2 is held (one part at a time): the outage starts with parts still to
        // send, whatever the machine's load; the outage resets the held connection, and the part
        // is sent again once the server is back.
        try proxy.configure(rules: [["method": "PUT", "contains": "partNumber=2&", "times": 1, "action": "hold"]])
        let pid = try startUploader(secret: moto.secretAccessKey, options: ["--multipart-threshold", "1048576"],
                                    configuration: ["partsInParallel": 1], endpoint: proxy.endpoint, log: "outage.log")
        defer { stopUploader(pid) }
        let started = await waitUntil(300) {
            guard let data = try? Data(contentsOf: progress),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
            return ((object["parts"] as? [Any])?.count ?? 0) >= 1
        }
        #expect(started, "no part was uploaded; the log:\n\(log("outage.log"))")
        try proxy.configure(rules: [], downSeconds: 30)
        // A second run finished during the outage.
        try? await Task.sleep(for: .seconds(2))
        let during = try finishedRun(size: 40_000, seed: 26)

        try await expectArrived(multipart, within: 150, log: "outage.log", proxy: proxy)
        try await expectArrived(during, within: 90, log: "outage.log", proxy: proxy)
        let records = proxy.records()
        let down = try #require(records.first { $0.event == "down" }, "the proxy logged no outage:\n\(proxy.logText)")
        let up = try #require(records.first { $0.event == "up" }, "the proxy logged no end of the outage:\n\(proxy.logText)")
        #expect(up.time - down.time >= 29.9)
        // Nothing got through meanwhile, and the uploader did try: connections refused (curl 7).
        #expect(!records.contains { $0.event == nil && $0.time > down.time && $0.time < up.time })
        #expect(log("outage.log").contains("curl 7"), "the log:\n\(log("outage.log"))")
        let listing = try await moto.listing(prefix: "pd-study/")
        #expect(Set(listing.keys) == [key(multipart.entry), key(during.entry)])
        #expect(listing.uploads.isEmpty, "unfinished uploads: \(listing.uploads)")
    }
}
