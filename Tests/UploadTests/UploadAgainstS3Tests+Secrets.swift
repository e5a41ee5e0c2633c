import Foundation
import Glibc
import TestSupport
import Testing
import Upload

/// Secrets stay out of logs (docs/upload.md, "Secrets"): a presigned PUT that fails, through a
/// fault proxy between activetask-upload and the storage, leaves its URL in the log, `lastError`
/// and queue.json as scheme, host and path only, never the signature that would let a reader
/// replay it.
extension UploadAgainstS3Tests {
    /// A study server whose URLs name a fault proxy in front of its moto.
    func studyServerBehindProxy(token: String) async throws -> (server: StudyServer, proxy: FaultProxy) {
        let proxyPort = LoopbackPort.free()
        let server = try await startStudyServer(token: token, flags: ["--url-port", "\(proxyPort)"])
        do {
            return (server, try await FaultProxy.start(upstreamPort: server.moto.port, scratch: scratch.url, port: proxyPort))
        } catch {
            server.stop()
            throw error
        }
    }

    /// What a reader could replay a signed URL with: its query's signature parts.
    static let signatureMarks = ["X-Amz-Signature", "X-Amz-Credential", "Signature=", "AWSAccessKeyId"]

    @Test("A failed presigned PUT: the log, lastError and queue.json name the URL without its query, so nobody can replay it")
    func signedURLNotLogged() async throws {
        let (server, proxy) = try await studyServerBehindProxy(token: "device-token")
        defer { server.stop(); proxy.stop() }
        let run = try finishedRun(size: 200_000, seed: 61)
        // Every PUT's connection is reset after 1000 bytes: libcurl's error names the URL.
        try proxy.configure(rules: [["method": "PUT", "action": "reset", "afterBytes": 1000]])
        let queue = dataDirectory.appendingPathComponent("uploads/queue.json")
        let pid = try startPresignedUploader(server: server, token: "device-token", log: "secrets.log")
        defer { stopUploader(pid) }
        let failed = await waitUntil(60) { ((try? String(contentsOf: queue, encoding: .utf8)) ?? "").contains("curl ") }
        #expect(failed, "no failed PUT in queue.json; the log:\n\(log("secrets.log"))")
        // JSON writes "/" as "\/": compare the text as a reader sees it.
        let held = ((try? String(contentsOf: queue, encoding: .utf8)) ?? "").replacingOccurrences(of: "\\/", with: "/")
        #expect(held.contains("127.0.0.1:\(proxy.port)/"), "lastError names the URL's host and path: \(held)")
        try proxy.configure(rules: [])
        #expect(await waitUntil(90) { FileManager.default.fileExists(atPath: receipt(run.entry).path) }, "no receipt; the log:\n\(log("secrets.log"))")
        let object = try await server.moto.object(key(run.entry), scratch: scratch.url)
        #expect(object.data == run.bytes)

        // The signed URLs did go through the proxy: the marks are there to find.
        #expect(proxy.logText.contains("X-Amz-Signature"), "the proxy saw no signed URL: \(proxy.logText)")
        for (name, text) in [("the log", log("secrets.log")), ("queue.json while failing", held),
                             ("queue.json", (try? String(contentsOf: queue, encoding: .utf8)) ?? "")] {
            for mark in Self.signatureMarks {
                #expect(!text.contains(mark), "\(name) holds \(mark):\n\(text)")
            }
        }
    }

    @Test("Presigned: a PUT answered 500, or 200 without an ETag (the answer cut): retried, the object byte for byte, never a receipt without it",
          arguments: [
            [["method": "PUT", "times": 1, "action": "status", "status": 500, "code": "InternalError"]],
            [["method": "PUT", "times": 1, "action": "replace", "body": ""]],
          ] as [[[String: any Sendable]]])
    func presignedStoreFailure(_ rules: [[String: any Sendable]]) async throws {
        let (server, proxy) = try await studyServerBehindProxy(token: "device-token")
        defer { server.stop(); proxy.stop() }
        let run = try finishedRun(size: 250_000, seed: 63)
        try proxy.configure(rules: rules)
        try await watchingReceipts(run.entry, key: key(run.entry), storage: server.moto) {
            let pid = try startPresignedUploader(server: server, token: "device-token", log: "presigned-fault.log")
            defer { stopUploader(pid) }
            #expect(await waitUntil(90) { FileManager.default.fileExists(atPath: receipt(run.entry).path) }, "no receipt; the log:\n\(log("presigned-fault.log"))")
        }
        let object = try await server.moto.object(key(run.entry), scratch: scratch.url)
        #expect(object.data == run.bytes)
        let puts = proxy.records().filter { $0.method == "PUT" && $0.action != "answer" && $0.action != "replaced" }
        #expect(puts.count == 2, "the PUT made twice: \(puts.map(\.action))")
        #expect(log("presigned-fault.log").contains("tried again later"), "the log:\n\(log("presigned-fault.log"))")
        try await expectAlone(key(run.entry), storage: server.moto)
    }
}
