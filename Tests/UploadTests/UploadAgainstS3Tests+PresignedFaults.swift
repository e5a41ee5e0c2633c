import Foundation
import Glibc
import TestSupport
import Testing
import Upload

/// The presigned flow under faults of both its servers (docs/upload.md, "The study server's
/// contract"; "A receipt means the store holds the bytes"): one fault proxy in front of the study
/// server (activetask-upload's `presigned.url`) and one in front of its storage (the URLs the
/// server signs). The device cannot HEAD the object, so its confirmation is the storage's
/// checked answer to the PUT and then the study server's 2xx to complete: never a receipt
/// before both, never one for an object the bucket does not hold.
extension UploadAgainstS3Tests {
    /// The study server with a proxy in front of its storage (`storage`, named by the URLs it
    /// signs) and one in front of itself (`study`, whose `url` the uploader is given).
    struct ProxiedStudyServer {
        let server: StudyServer
        let storage: FaultProxy
        let study: FaultProxy

        var url: String { "http://127.0.0.1:\(study.port)/uploads" }

        func stop() {
            study.stop()
            storage.stop()
            server.stop()
        }
    }

    func studyServerBehindProxies(token: String) async throws -> ProxiedStudyServer {
        let (server, storage) = try await studyServerBehindProxy(token: token)
        do {
            return ProxiedStudyServer(server: server, storage: storage,
                                      study: try await FaultProxy.start(upstreamPort: server.port, scratch: scratch.url))
        } catch {
            storage.stop()
            server.stop()
            throw error
        }
    }

    /// When the uploader first heard the study server answer a complete with 2xx (the proxy's
    /// log time): an answer the proxy replaced or held does not count.
    static func completeHeard(_ study: FaultProxy) -> Double? {
        let records = study.records().filter { $0.target.hasSuffix("/complete") }
        let spoiled = Set(records.filter { $0.action == "replaced" || $0.action == "held" }.map(\.target))
        return records.first { $0.action == "answer" && (200..<300).contains($0.status ?? 0) && !spoiled.contains($0.target) }?.time
    }

    /// For the receipt watch: a receipt seen before the study proxy logged a 2xx answer to
    /// complete on its way to the uploader (the proxy logs an answer before it passes it on, so
    /// a receipt written only after complete was heard always finds the line; file times are no
    /// help, the kernel stamps them from a clock a tick behind).
    static func receiptBeforeComplete(_ study: FaultProxy) -> @Sendable () -> String? {
        { completeHeard(study) == nil ? "a receipt before the study server's 2xx to complete reached the uploader:\n\(study.logText)" : nil }
    }

    /// The receipt records the archive's SHA-256 as coreutils computes it, and a complete was
    /// answered 2xx.
    func expectReceiptAfterComplete(_ entry: OutboxEntry, study: FaultProxy, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(Self.completeHeard(study) != nil, "no complete answered 2xx:\n\(study.logText)", sourceLocation: sourceLocation)
        let stored = try JSONDecoder().decode(UploadReceipt.self, from: Data(contentsOf: receipt(entry)))
        #expect(stored.archiveSHA256 == (try CommandRunner.sha256sum(dataDirectory.appendingPathComponent(entry.archive))),
                sourceLocation: sourceLocation)
    }

    @Test("Presigned: kill -9 between each pair of calls (the grant asked for, the PUT, complete; each taking effect, its answer never heard), then a restart: never a receipt without the object or before complete; one object (decrypted, when encrypted)",
          arguments: [false, true])
    func presignedKillBetweenCalls(encrypted: Bool) async throws {
        let proxied = try await studyServerBehindProxies(token: "device-token")
        defer { proxied.stop() }
        let run = try finishedRun(size: 300_000, seed: encrypted ? 65 : 62)
        let variant = try await variant(encrypted: encrypted, for: run.entry)
        let calls: [(proxy: FaultProxy, call: [String: any Sendable])] = [
            (proxied.study, ["method": "POST", "contains": "/uploads"]),  // the start's first POST: the grant
            (proxied.storage, ["method": "PUT"]),
            (proxied.study, ["method": "POST", "contains": "/complete"]),
        ]
        var held: [String] = []
        try await watchingReceipts(run.entry, key: variant.objectKey, storage: proxied.server.moto,
                                   alsoWithReceipt: Self.receiptBeforeComplete(proxied.study)) {
            held = try await killBetweenCalls(run.entry, calls: calls) { n in
                try startPresignedUploader(server: proxied.server, url: proxied.url, token: "device-token", configuration: variant.configuration,
                                           log: "presigned-kill-\(n).log")
            }
        }
        #expect(held.count == 3, "\(held)")
        #expect(held.first == "POST /uploads" && held.last?.hasSuffix("/complete") == true, "\(held)")
        // Every start began again at the grant; the held complete took effect on the server, and
        // the last start's complete is the one the receipt follows.
        #expect(proxied.server.calls("request").count == 4, "\(proxied.server.calls())")
        #expect(proxied.server.calls("complete").count == 2, "\(proxied.server.calls())")
        try expectReceiptAfterComplete(run.entry, study: proxied.study)
        try await expectObject(variant, is: run.bytes, in: proxied.server.moto)
        try await expectAlone(variant.objectKey, storage: proxied.server.moto)
    }

    /// One way the study server's answers fail.
    struct StudyServerFault: Sendable, CustomTestStringConvertible {
        var name: String
        var rule: [String: any Sendable]
        /// The complete calls the server records in all.
        var completes: Int
        var testDescription: String { name }
    }

    static let studyServerFaults: [StudyServerFault] = [
        StudyServerFault(name: "the grant answered 500", rule: ["method": "POST", "contains": "/uploads", "times": 1, "action": "status", "status": 500],
                         completes: 1),
        StudyServerFault(name: "complete answered 503 without reaching the server",
                         rule: ["method": "POST", "contains": "/complete", "times": 1, "action": "status", "status": 503], completes: 1),
        StudyServerFault(name: "complete taken by the server, its answer replaced by 503 (the device never hears it)",
                         rule: ["method": "POST", "contains": "/complete", "times": 1, "action": "replace", "status": 503], completes: 2),
    ]

    @Test("Presigned: the study server's grant or complete failing is retried from a new grant; the receipt only after a complete answered 2xx, the object byte for byte",
          arguments: studyServerFaults)
    func presignedStudyServerFailure(_ fault: StudyServerFault) async throws {
        let proxied = try await studyServerBehindProxies(token: "device-token")
        defer { proxied.stop() }
        let run = try finishedRun(size: 120_000, seed: 64)
        try proxied.study.configure(rules: [fault.rule])
        try await watchingReceipts(run.entry, key: key(run.entry), storage: proxied.server.moto,
                                   alsoWithReceipt: Self.receiptBeforeComplete(proxied.study)) {
            let pid = try startPresignedUploader(server: proxied.server, url: proxied.url, token: "device-token", log: "study-fault.log")
            defer { stopUploader(pid) }
            #expect(await waitUntil(90) { FileManager.default.fileExists(atPath: receipt(run.entry).path) }, "no receipt; the log:\n\(log("study-fault.log"))")
        }
        #expect(log("study-fault.log").contains("tried again later"), "the log:\n\(log("study-fault.log"))")
        #expect(proxied.server.calls("complete").count == fault.completes, "\(proxied.server.calls())")
        try expectReceiptAfterComplete(run.entry, study: proxied.study)
        let object = try await proxied.server.moto.object(key(run.entry), scratch: scratch.url)
        #expect(object.data == run.bytes)
        try await expectAlone(key(run.entry), storage: proxied.server.moto)
    }
}
