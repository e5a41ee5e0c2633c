import Foundation
import Glibc
import TestSupport
import Testing
import Upload

/// A receipt means the store holds the bytes (docs/upload.md, "No receipt, no deletion"): every
/// way a store's answer can fail, made by the fault proxy in front of moto, ends with the object
/// in the bucket byte for byte, alone, no unfinished multipart upload, and at no moment a receipt
/// for an object the bucket does not hold (polled beside the upload).
extension UploadAgainstS3Tests {
    /// One way the store's answers fail.
    struct StoreFault: Sendable, CustomTestStringConvertible {
        var name: String
        var rules: [[String: any Sendable]]
        /// A multipart upload (three parts) rather than one PUT.
        var multipart = true
        /// What the uploader's log says about it.
        var logged: String?
        var testDescription: String { name }
    }

    static let completeCall: [String: any Sendable] = ["method": "POST", "contains": "uploadId="]
    static let injectedError = #"<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>"#

    static let storeFaults: [StoreFault] = [
        StoreFault(name: "Complete 200 with an empty body (assembled, the answer cut)",
                   rules: [completeCall.merging(["times": 1, "action": "replace", "body": ""]) { $1 }], logged: "IncompleteAnswer"),
        StoreFault(name: "Complete 200 with an empty body, the request never reaching the store",
                   rules: [completeCall.merging(["times": 1, "action": "replace", "upstream": false, "body": ""]) { $1 }], logged: "IncompleteAnswer"),
        StoreFault(name: "Complete 200 with white space only",
                   rules: [completeCall.merging(["times": 1, "action": "replace", "body": "  \n\t  \n"]) { $1 }], logged: "IncompleteAnswer"),
        StoreFault(name: "Complete 200 with its result cut after 80 bytes",
                   rules: [completeCall.merging(["times": 1, "action": "replace", "truncate": 80]) { $1 }], logged: "IncompleteAnswer"),
        StoreFault(name: "Complete 200 with an <Error> body (not assembled)",
                   rules: [completeCall.merging(["times": 1, "action": "replace", "upstream": false, "body": injectedError]) { $1 }], logged: "InternalError"),
        StoreFault(name: "a part answered 500",
                   rules: [["method": "PUT", "contains": "partNumber=2&", "times": 1, "action": "status", "status": 500, "code": "InternalError"]],
                   logged: "InternalError"),
        StoreFault(name: "Complete's answer cut, then HEAD 403: the upload is made again",
                   rules: [completeCall.merging(["times": 1, "action": "replace", "body": ""]) { $1 },
                           ["method": "HEAD", "times": 1, "action": "status", "status": 403, "code": "AccessDenied"]],
                   logged: "A multipart upload the storage no longer knows starts again."),
        StoreFault(name: "a single PUT confirmed by a HEAD answered 403 (no s3:GetObject): the PUT's own checked answer counts",
                   rules: [["method": "HEAD", "times": 1, "action": "status", "status": 403, "code": "AccessDenied"]], multipart: false,
                   logged: "The storage refuses HEAD"),
        StoreFault(name: "the storage's clock an hour ahead (RequestTimeTooSkewed with its Date)",
                   rules: [["action": "skew", "seconds": 3600]], multipart: false, logged: "RequestTimeTooSkewed"),
        StoreFault(name: "the storage's clock an hour ahead, multipart",
                   rules: [["action": "skew", "seconds": 3600]], logged: "RequestTimeTooSkewed"),
    ]

    /// Runs `body` while a child task polls, every 100 ms, the run's receipt and, whenever there
    /// is one, the bucket (`storage`, read directly, not through the proxy); records an issue for
    /// every moment a receipt named an object the bucket did not hold with the receipt's size,
    /// and for every moment `alsoWithReceipt` (asked whenever there is a receipt) names a
    /// violation; also when `body` throws (its error is thrown after).
    func watchingReceipts(_ entry: OutboxEntry, key: String, storage: MotoServer, sourceLocation: SourceLocation = #_sourceLocation,
                          alsoWithReceipt: (@Sendable () -> String?)? = nil,
                          _ body: () async throws -> Void) async throws {
        let receiptURL = receipt(entry)
        let (violations, failure) = await withTaskGroup(of: [String].self) { group -> ([String], (any Error)?) in
            group.addTask {
                var violations: [String] = []
                while !Task.isCancelled {
                    if let data = try? Data(contentsOf: receiptURL), let stored = try? JSONDecoder().decode(UploadReceipt.self, from: data) {
                        let object = try? await storage.digest(key)
                        if object?.size != stored.size {
                            violations.append("a receipt for \(stored.size) bytes while the bucket held \(object.map { "\($0.size) bytes" } ?? "no object")")
                        }
                        if let violation = alsoWithReceipt?() { violations.append(violation) }
                    }
                    try? await Task.sleep(for: .milliseconds(100))
                }
                return violations
            }
            var failure: (any Error)?
            do { try await body() } catch { failure = error }
            group.cancelAll()
            return (await group.next() ?? [], failure)
        }
        #expect(violations.isEmpty, "receipts for objects the bucket did not hold: \(violations)", sourceLocation: sourceLocation)
        if let failure { throw failure }
    }

    /// The bucket holds `key` alone, no unfinished multipart upload.
    func expectAlone(_ key: String, storage: MotoServer, otherwise context: String = "", sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let listing = try await storage.listing(prefix: "pd-study/")
        #expect(listing.keys == [key], sourceLocation: sourceLocation)
        #expect(listing.uploads.isEmpty, "unfinished multipart uploads: \(listing.uploads)\n\(context)", sourceLocation: sourceLocation)
    }

    /// A test's plain or encrypted variant: the uploader's configuration (`base`, with the study's
    /// EC certificate when encrypted), the object's key, and the certificate and key that
    /// decrypt the object.
    struct Variant {
        var configuration: [String: Any]
        var objectKey: String
        var study: (certificate: String, key: String)?
    }

    func variant(encrypted: Bool, for entry: OutboxEntry, configuration base: [String: Any] = [:]) async throws -> Variant {
        var variant = Variant(configuration: base, objectKey: key(entry) + (encrypted ? ".p7m" : ""))
        if encrypted {
            let study = try await studyCertificate("ec")
            variant.study = study
            variant.configuration["encryption"] = ["certificate": study.certificate]
        }
        return variant
    }

    /// Reads the variant's object from `storage` and expects it to be `bytes` (decrypted with
    /// `openssl cms`, when encrypted); returns the object.
    @discardableResult
    func expectObject(_ variant: Variant, is bytes: Data, in storage: MotoServer,
                      sourceLocation: SourceLocation = #_sourceLocation) async throws -> (data: Data, etag: String, contentType: String, file: URL) {
        let object = try await storage.object(variant.objectKey, scratch: scratch.url)
        if let study = variant.study {
            #expect(try await decrypt(object.file, certificate: study.certificate, key: study.key) == bytes, sourceLocation: sourceLocation)
        } else {
            #expect(object.data == bytes, "the object differs from the archive", sourceLocation: sourceLocation)
        }
        return object
    }

    /// The S3 calls of a multipart upload, in the order a run killed at each in turn meets them:
    /// CreateMultipartUpload, part 1, ListParts (the restart's first call), part 2, Complete, the
    /// confirming HEAD, ListMultipartUploads and the AbortMultipartUpload of the upload whose
    /// start was never answered.
    static let s3Calls: [[String: any Sendable]] = [
        ["method": "POST", "contains": "?uploads="], ["method": "PUT", "contains": "partNumber=1&"],
        ["method": "GET", "contains": "part-number-marker="], ["method": "PUT", "contains": "partNumber=2&"],
        ["method": "POST", "contains": "?uploadId="], ["method": "HEAD"], ["method": "GET", "contains": "uploads="],
        ["method": "DELETE", "contains": "uploadId="],
    ]

    /// Kills between calls: round n holds the first call matching `calls[n]` of that start (the
    /// call takes effect, its answer never comes), then kills the uploader `start(n)` started with
    /// SIGKILL; until a start gets to the run's receipt. Returns the calls that were held.
    func killBetweenCalls(_ entry: OutboxEntry, proxy: FaultProxy, calls: [[String: any Sendable]],
                          start: (Int) throws -> pid_t) async throws -> [String] {
        try await killBetweenCalls(entry, calls: calls.map { (proxy: proxy, call: $0) }, start: start)
    }

    /// The same, each call held by its own proxy (the study server's and its storage's, for the
    /// presigned flow); the other proxies forward everything meanwhile.
    func killBetweenCalls(_ entry: OutboxEntry, calls: [(proxy: FaultProxy, call: [String: any Sendable])],
                          start: (Int) throws -> pid_t) async throws -> [String] {
        var proxies: [FaultProxy] = []
        for (proxy, _) in calls where !proxies.contains(where: { $0 === proxy }) { proxies.append(proxy) }
        var logs: String { proxies.map { "proxy \($0.port):\n\($0.logText)" }.joined(separator: "\n") }
        var held: [String] = []
        for (n, (proxy, call)) in calls.enumerated() {
            for each in proxies { try each.configure(rules: each === proxy ? [call.merging(["times": 1, "action": "hold"]) { $1 }] : []) }
            let heldBefore = proxy.records().filter { $0.action == "held" }.count
            let pid = try start(n)
            let came = await waitUntil(90) {
                FileManager.default.fileExists(atPath: receipt(entry).path) || proxy.records().filter { $0.action == "held" }.count > heldBefore
            }
            let records = proxy.records().filter { $0.action == "held" }
            kill(pid, SIGKILL)
            _ = ChildSpawn.waitForExit(pid)
            #expect(came, "round \(n): neither a held call nor a receipt; the proxies' logs:\n\(logs)")
            guard came, records.count > heldBefore, let last = records.last else { break }
            held.append("\(last.method) \(last.target)")
        }
        // The last start, with no call held, gets to the receipt.
        for each in proxies { try each.configure(rules: []) }
        let pid = try start(calls.count)
        defer { stopUploader(pid) }
        #expect(await waitUntil(90) { FileManager.default.fileExists(atPath: receipt(entry).path) }, "no receipt after the kills; the proxies' logs:\n\(logs)")
        return held
    }

    @Test("Every store failure ends with the object byte for byte (decrypted, when encrypted), alone, and never a receipt for an object the bucket does not hold",
          arguments: storeFaults, [false, true])
    func storeFailure(_ fault: StoreFault, encrypted: Bool) async throws {
        let proxy = try await FaultProxy.start(upstreamPort: moto.port, scratch: scratch.url)
        defer { proxy.stop() }
        let run = try finishedRun(size: fault.multipart ? 2 * Self.partSize + 100_000 : 300_000, seed: 51)
        let variant = try await variant(encrypted: encrypted, for: run.entry)
        try proxy.configure(rules: fault.rules)
        try await watchingReceipts(run.entry, key: variant.objectKey, storage: moto) {
            let pid = try startUploader(secret: moto.secretAccessKey, options: ["--multipart-threshold", "1048576"], configuration: variant.configuration,
                                        endpoint: proxy.endpoint, log: "fault.log")
            defer { stopUploader(pid) }
            #expect(await waitUntil(90) { FileManager.default.fileExists(atPath: receipt(run.entry).path) },
                    "no receipt; the log:\n\(log("fault.log"))\nthe proxy's log:\n\(proxy.logText)")
        }
        let object = try await expectObject(variant, is: run.bytes, in: moto)
        let stored = try JSONDecoder().decode(UploadReceipt.self, from: Data(contentsOf: receipt(run.entry)))
        #expect(stored.etag == object.etag)
        #expect(stored.size == Int64(object.data.count))
        #expect(stored.archiveSize == Int64(run.bytes.count))
        if let logged = fault.logged { #expect(log("fault.log").contains(logged), "the log:\n\(log("fault.log"))") }
        // Every rule was met: the fault happened.
        let faulted = proxy.records().filter { ["status", "replace", "replaced", "skew"].contains($0.action) || $0.status == 403 }
        #expect(!faulted.isEmpty, "no fault was made; the proxy's log:\n\(proxy.logText)")
        try await expectAlone(variant.objectKey, storage: moto)
    }

    @Test("A run deleted before its multipart upload finished: the next scan aborts its upload, then removes its progress; no part stays in the bucket")
    func departedRunAbortsItsUpload() async throws {
        let proxy = try await FaultProxy.start(upstreamPort: moto.port, scratch: scratch.url)
        defer { proxy.stop() }
        let run = try finishedRun(size: Self.partSize + 100_000, seed: 56)
        let progress = receipt(run.entry).deletingLastPathComponent().appendingPathComponent("\(run.entry.taskRunUUID.uuidString).multipart.json")
        // Part 2 is held: part 1 is stored and the progress file names the upload.
        try proxy.configure(rules: [["method": "PUT", "contains": "partNumber=2&", "times": 1, "action": "hold"]])
        let first = try startUploader(secret: moto.secretAccessKey, options: ["--multipart-threshold", "1048576"],
                                      configuration: ["partsInParallel": 1], endpoint: proxy.endpoint, log: "departed-first.log")
        let held = await waitUntil(90) { proxy.records().contains { $0.action == "held" } }
        kill(first, SIGKILL)
        _ = ChildSpawn.waitForExit(first)
        #expect(held, "part 2 was never sent; the proxy's log:\n\(proxy.logText)")
        #expect(FileManager.default.fileExists(atPath: progress.path), "no multipart progress; the log:\n\(log("departed-first.log"))")
        #expect(try await moto.listing(prefix: "pd-study/").uploads.count == 1, "the upload under way is not in the bucket's list")

        // The daemon deletes the run, and with it its outbox entry (docs/upload.md).
        try FileManager.default.removeItem(at: dataDirectory.appendingPathComponent("outbox/\(run.entry.taskRunUUID.uuidString).json"))
        try proxy.configure(rules: [])
        let second = try startUploader(secret: moto.secretAccessKey, configuration: ["partsInParallel": 1], log: "departed-second.log")
        defer { stopUploader(second) }
        let aborted = await waitUntil(90) {
            guard !FileManager.default.fileExists(atPath: progress.path) else { return false }
            return (try? await moto.listing(prefix: "pd-study/").uploads.isEmpty) ?? false
        }
        #expect(aborted, "the departed run's upload was not aborted and its progress removed; the log:\n\(log("departed-second.log"))")
        let listing = try await moto.listing(prefix: "pd-study/")
        #expect(listing.keys.isEmpty && listing.uploads.isEmpty, "\(listing)")
        #expect(!FileManager.default.fileExists(atPath: receipt(run.entry).path))
        #expect(log("departed-second.log").contains("its run left the outbox before the upload finished"), "the log:\n\(log("departed-second.log"))")
    }

    @Test("An encrypted copy made again (a new content key, the same size) is never completed with the old copy's parts: the upload starts again whole")
    func encryptedCopyMadeAgain() async throws {
        let (study, run, encryption) = try await encryptedUploadKilledAfterFirstPart(seed: 52, log: "remade-first.log")
        let first = try Data(contentsOf: encryptedCopy(run.entry))
        // The copy is lost (as a full disk's cleanup or an operator might): the next attempt
        // encrypts again, with a new content key.
        try FileManager.default.removeItem(at: encryptedCopy(run.entry))

        let objectKey = key(run.entry) + ".p7m"
        try await watchingReceipts(run.entry, key: objectKey, storage: moto) {
            let second = try startUploader(secret: moto.secretAccessKey, options: ["--multipart-threshold", "1048576"],
                                           configuration: encryption, log: "remade-second.log")
            defer { stopUploader(second) }
            #expect(await waitUntil(90) { FileManager.default.fileExists(atPath: receipt(run.entry).path) }, "no receipt; the log:\n\(log("remade-second.log"))")
        }
        #expect(log("remade-second.log").contains("does not match the file any more"), "the log:\n\(log("remade-second.log"))")
        let object = try await moto.object(objectKey, scratch: scratch.url)
        #expect(object.data.count == first.count)
        #expect(object.data != first, "the object is the second copy")
        #expect(try await decrypt(object.file, certificate: study.certificate, key: study.key) == run.bytes)
        try await expectAlone(objectKey, storage: moto)
    }

    @Test("kill -9 between each pair of S3 calls (each call taking effect, its answer never heard), then a restart: never a receipt without the object; one object, no unfinished upload",
          arguments: [false, true])
    func killBetweenCalls(encrypted: Bool) async throws {
        let proxy = try await FaultProxy.start(upstreamPort: moto.port, scratch: scratch.url)
        defer { proxy.stop() }
        let run = try finishedRun(size: Self.partSize + 100_000, seed: encrypted ? 54 : 53)
        let variant = try await variant(encrypted: encrypted, for: run.entry, configuration: ["partsInParallel": 1])
        var held: [String] = []
        try await watchingReceipts(run.entry, key: variant.objectKey, storage: moto) {
            held = try await killBetweenCalls(run.entry, proxy: proxy, calls: Self.s3Calls) { n in
                try startUploader(secret: moto.secretAccessKey, options: ["--multipart-threshold", "1048576"],
                                  configuration: variant.configuration, endpoint: proxy.endpoint, log: "kill-\(n).log")
            }
        }
        #expect(held.count == Self.s3Calls.count, "killed after only \(held.count) of the calls: \(held); the proxy's log:\n\(proxy.logText)")
        #expect(FileManager.default.fileExists(atPath: receipt(run.entry).path))
        try await expectObject(variant, is: run.bytes, in: moto)
        try await expectAlone(variant.objectKey, storage: moto, otherwise: proxy.logText)
    }
}
