import Foundation
import Testing
import TestSupport
import Upload
@testable import Session

/// The upload outbox (docs/upload.md): a finished run's archive is placed in it when uploads are
/// configured, and retention removes only runs activetask-upload confirmed uploading.
@Suite struct RunStoreOutboxTests {
    @Test("Without an outbox directory no entry is written; with one, each finished run gets one, a saved run none")
    func entries() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = RunStoreTests.store(scratch)
        let before = try RunStoreTests.finishedRuns(store, count: 1)[0]
        #expect(!FileManager.default.fileExists(atPath: store.outboxDirectory.path))
        try FileManager.default.createDirectory(at: store.outboxDirectory, withIntermediateDirectories: true)
        let run = try RunStoreTests.finishedRuns(store, count: 1)[0]
        let saved = try RunStoreTests.makeRun(store)
        try store.finish(saved, manifest: try saved.readManifest(), reason: .saved)

        let names = try FileManager.default.contentsOfDirectory(atPath: store.outboxDirectory.path)
        #expect(names == ["\(run.taskRunUUID.uuidString).json"])
        #expect(!names.contains("\(before.taskRunUUID.uuidString).json"))
        let entry = try RunStoreTests.jsonObject(store.outboxDirectory.appendingPathComponent(names[0]))
        let archive = try #require(entry["archive"] as? String)
        #expect(archive == "runs/\(run.taskRunUUID.uuidString)/\(run.archiveName)")
        let size = try FileManager.default.attributesOfItem(atPath: scratch.url.appendingPathComponent(archive).path)[.size] as? NSNumber
        #expect((entry["size"] as? NSNumber)?.int64Value == size?.int64Value)
        // The archive's SHA-256 as coreutils computes it, in the entry and the manifest.
        let sha256 = try #require(try CommandRunner.sha256sum(scratch.url.appendingPathComponent(archive)))
        #expect(entry["sha256"] as? String == sha256)
        #expect(try run.readManifest().archiveSHA256 == sha256)
        #expect(entry["taskIdentifier"] as? String == "WalkAndBalance")
        #expect(entry["finishReason"] as? String == "completed")
        #expect(entry["endDate"] as? String == "2017-10-17T05:28:39Z")
        // The reader's side of the format: activetask-upload finds the same entry.
        let pending = UploadDirectories(dataDirectory: scratch.url).pending()
        #expect(pending.unreadable.isEmpty)
        #expect(pending.entries.map(\.taskRunUUID) == [run.taskRunUUID])
        #expect(pending.entries.first?.archive == archive)
        #expect(pending.entries.first?.endDay == "2017-10-17")
    }

    @Test("With uploads configured, retention removes a run only after a receipt for its archive, whatever keepUncollectedArchives says")
    func retention() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = RunStoreTests.store(scratch)
        try FileManager.default.createDirectory(at: store.outboxDirectory, withIntermediateDirectories: true)
        let runs = try RunStoreTests.finishedRuns(store, count: 2)
        let policy = RetentionPolicy(maxRuns: 1, maxAgeDays: 0, keepUncollectedArchives: false)
        let first = try store.prune(policy, now: RunStoreTests.end)
        #expect(first.removed.isEmpty)
        #expect(first.trimmed == [runs[1].taskRunUUID])
        #expect(FileManager.default.fileExists(atPath: runs[1].url.appendingPathComponent(runs[1].archiveName).path))

        try FileManager.default.createDirectory(at: store.uploadReceiptsDirectory, withIntermediateDirectories: true)
        // No receipt, no deletion: one that does not read, one without an ETag and one for
        // another archive (its size differs) each keep the run.
        try Data("{}".utf8).write(to: store.uploadReceiptsDirectory.appendingPathComponent("\(runs[1].taskRunUUID.uuidString).uploaded.json"))
        #expect(try store.prune(policy, now: RunStoreTests.end).removed.isEmpty)
        try Self.writeReceipt(store, runs[1], etag: "")
        #expect(try store.prune(policy, now: RunStoreTests.end).removed.isEmpty)
        try Self.writeReceipt(store, runs[1], sizeOffset: 1)
        #expect(try store.prune(policy, now: RunStoreTests.end).removed.isEmpty)
        try Self.writeReceipt(store, runs[1], sizeOffset: -1, encrypted: true)
        #expect(try store.prune(policy, now: RunStoreTests.end).removed.isEmpty)
        // The archive's size but another archive's SHA-256 (sizes alike, bytes not): kept.
        try Self.writeReceipt(store, runs[1], encrypted: true, sha256: String(repeating: "0", count: 64))
        #expect(try store.prune(policy, now: RunStoreTests.end).removed.isEmpty)
        #expect(store.runs().first { $0.taskRunUUID == runs[1].taskRunUUID }?.upload?.state == .receiptMismatch)
        #expect(FileManager.default.fileExists(atPath: runs[1].url.appendingPathComponent(runs[1].archiveName).path))
        // An encrypted upload's receipt: `size` is the encrypted copy's, `archiveSize` the
        // archive's, and its SHA-256 the archive's.
        let sha256 = try CommandRunner.sha256sum(runs[1].url.appendingPathComponent(runs[1].archiveName))
        try Self.writeReceipt(store, runs[1], encrypted: true, sha256: sha256)
        #expect(store.runs().first { $0.taskRunUUID == runs[1].taskRunUUID }?.upload?.state == .uploaded)
        #expect(try store.prune(policy, now: RunStoreTests.end).removed == [runs[1].taskRunUUID])
        #expect(!FileManager.default.fileExists(atPath: runs[1].url.path))
        #expect(!FileManager.default.fileExists(atPath: store.outboxDirectory.appendingPathComponent("\(runs[1].taskRunUUID.uuidString).json").path))
        #expect(FileManager.default.fileExists(atPath: runs[0].url.appendingPathComponent(runs[0].archiveName).path))
    }

    /// Writes activetask-upload's receipt for `run` as the uploader does, for its archive's size
    /// plus `sizeOffset`, with `sha256` as the archive's; `encrypted` records an encrypted copy (`.p7m`, a larger `size`, the
    /// archive's size in `archiveSize`).
    static func writeReceipt(_ store: RunStore, _ run: RunDirectory, key: String = "study/dev/2017-10-17/WalkAndBalance/r.zip",
                             etag: String = "\"0123abcd\"", sizeOffset: Int64 = 0, encrypted: Bool = false,
                             sha256: String? = nil) throws {
        try FileManager.default.createDirectory(at: store.uploadReceiptsDirectory, withIntermediateDirectories: true)
        let archive = run.url.appendingPathComponent(run.archiveName).path
        let size = (try FileManager.default.attributesOfItem(atPath: archive)[.size] as? NSNumber)?.int64Value ?? -1
        let receipt = UploadReceipt(taskRunUUID: run.taskRunUUID.uuidString, key: encrypted ? key + ".p7m" : key, etag: etag,
                                    size: encrypted ? size + 1000 : size + sizeOffset, uploadedDate: "2017-10-18T08:00:00Z",
                                    archiveSize: encrypted ? size + sizeOffset : nil, archiveSHA256: sha256)
        try JSONEncoder().encode(receipt).write(to: store.uploadReceiptsDirectory.appendingPathComponent(UploadReceipt.fileName(for: run.taskRunUUID)))
    }

    @Test("The final manifest says queued when the run goes to the outbox, and nothing without uploads configured")
    func manifestQueued() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = RunStoreTests.store(scratch)
        let before = try RunStoreTests.finishedRuns(store, count: 1)[0]
        #expect(try before.readManifest().upload == nil)
        #expect(store.runs().first?.upload == nil)

        try FileManager.default.createDirectory(at: store.outboxDirectory, withIntermediateDirectories: true)
        let run = try RunStoreTests.finishedRuns(store, count: 1)[0]
        #expect(try run.readManifest().upload == RunUploadRecord(state: .queued))
        #expect(FileManager.default.fileExists(atPath: store.outboxDirectory.appendingPathComponent("\(run.taskRunUUID.uuidString).json").path))
        let summaries = Dictionary(uniqueKeysWithValues: store.runs().map { ($0.taskRunUUID, $0) })
        #expect(summaries[run.taskRunUUID]?.upload == RunUploadRecord(state: .queued))
        // Finished before uploads were configured: never placed, so not on the way.
        #expect(summaries[before.taskRunUUID]?.upload == nil)
    }

    @Test("A receipt is recorded in the manifest as uploaded with key, ETag and date by the retention pass")
    func receiptRecordedByRetention() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = RunStoreTests.store(scratch)
        try FileManager.default.createDirectory(at: store.outboxDirectory, withIntermediateDirectories: true)
        let run = try RunStoreTests.finishedRuns(store, count: 1)[0]
        try Self.writeReceipt(store, run)
        // A policy that keeps everything: the pass still looks at receipts.
        let report = try store.prune(RetentionPolicy(maxRuns: 0, maxAgeDays: 0), now: RunStoreTests.end)
        #expect(report.removed.isEmpty && report.trimmed.isEmpty)
        let upload = try #require(try run.readManifest().upload)
        #expect(upload.state == .uploaded)
        #expect(upload.key == "study/dev/2017-10-17/WalkAndBalance/r.zip")
        #expect(upload.etag == "\"0123abcd\"")
        #expect(upload.uploadedDate == Date(timeIntervalSince1970: 1_508_313_600))
        // Recorded once: a second pass leaves the manifest as it is.
        let written = try run.readManifest().updatedDate
        _ = try store.prune(RetentionPolicy(maxRuns: 0, maxAgeDays: 0), now: RunStoreTests.end.addingTimeInterval(60))
        #expect(try run.readManifest().updatedDate == written)
    }

    @Test("Listing the runs records a new receipt in the manifest, and the uploader's queue gives held with its error")
    func receiptRecordedByListing() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = RunStoreTests.store(scratch)
        try FileManager.default.createDirectory(at: store.outboxDirectory, withIntermediateDirectories: true)
        let runs = try RunStoreTests.finishedRuns(store, count: 2)
        let held = UploadQueueSnapshot.Run(
            taskRunUUID: runs[1].taskRunUUID, taskIdentifier: "WalkAndBalance", archive: "runs/x/x.zip", size: 42, state: "held",
            attempts: 1, lastErrorCode: "SignatureDoesNotMatch", lastError: "Check the secret.", nextTry: "2017-10-18T14:00:00Z")
        try FileManager.default.createDirectory(at: store.uploadReceiptsDirectory, withIntermediateDirectories: true)
        try JSONEncoder().encode(UploadQueueSnapshot(updated: "2017-10-18T08:00:00Z", runs: [held]))
            .write(to: store.uploadReceiptsDirectory.appendingPathComponent(UploadQueueSnapshot.fileName))
        try Self.writeReceipt(store, runs[0])

        let listed = Dictionary(uniqueKeysWithValues: store.runs().map { ($0.taskRunUUID, $0.upload) })
        #expect(listed[runs[0].taskRunUUID]??.state == .uploaded)
        #expect(listed[runs[0].taskRunUUID]??.etag == "\"0123abcd\"")
        #expect(listed[runs[1].taskRunUUID] == RunUploadRecord(
            state: .held, attempts: 1, lastErrorCode: "SignatureDoesNotMatch", lastError: "Check the secret.",
            nextTry: Date(timeIntervalSince1970: 1_508_335_200)))
        #expect(try runs[0].readManifest().upload?.state == .uploaded)
        #expect(try runs[0].readManifest().upload?.key == "study/dev/2017-10-17/WalkAndBalance/r.zip")
        // The queue's live state is not written into the manifest: it stays queued there.
        #expect(try runs[1].readManifest().upload == RunUploadRecord(state: .queued))
    }

    @Test("A queued run whose outbox entry is missing (a crash after the final manifest) is placed again by the retention pass")
    func missingEntryPlacedAgain() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = RunStoreTests.store(scratch)
        try FileManager.default.createDirectory(at: store.outboxDirectory, withIntermediateDirectories: true)
        let run = try RunStoreTests.finishedRuns(store, count: 1)[0]
        let entry = store.outboxDirectory.appendingPathComponent("\(run.taskRunUUID.uuidString).json")
        let written = try Data(contentsOf: entry)
        try FileManager.default.removeItem(at: entry)
        #expect(store.runs().first?.upload == nil)
        _ = try store.prune(RetentionPolicy(maxRuns: 0, maxAgeDays: 0), now: RunStoreTests.end)
        #expect(try Data(contentsOf: entry) == written)
        #expect(store.runs().first?.upload == RunUploadRecord(state: .queued))
    }

    @Test("A manifest written before uploads (no upload key) still reads, without an upload record")
    func oldManifestDecodes() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = RunStoreTests.store(scratch)
        try FileManager.default.createDirectory(at: store.outboxDirectory, withIntermediateDirectories: true)
        let run = try RunStoreTests.finishedRuns(store, count: 1)[0]
        var object = try RunStoreTests.jsonObject(run.manifestURL)
        #expect(object["upload"] != nil)
        object["upload"] = nil
        try JSONSerialization.data(withJSONObject: object).write(to: run.manifestURL)
        let manifest = try run.readManifest()
        #expect(manifest.upload == nil)
        #expect(manifest.status == .final)
        // Still in the outbox: listed as queued all the same.
        #expect(store.runs().first?.upload == RunUploadRecord(state: .queued))
    }

    @Test("Retention removes the run and its outbox entry but leaves the uploader's receipt alone")
    func receiptNotRemoved() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = RunStoreTests.store(scratch)
        try FileManager.default.createDirectory(at: store.outboxDirectory, withIntermediateDirectories: true)
        let runs = try RunStoreTests.finishedRuns(store, count: 2)
        try Self.writeReceipt(store, runs[1])
        #expect(try store.prune(RetentionPolicy(maxRuns: 1, maxAgeDays: 0), now: RunStoreTests.end).removed == [runs[1].taskRunUUID])
        #expect(!FileManager.default.fileExists(atPath: store.outboxDirectory.appendingPathComponent("\(runs[1].taskRunUUID.uuidString).json").path))
        #expect(FileManager.default.fileExists(atPath: store.uploadReceiptsDirectory.appendingPathComponent(UploadReceipt.fileName(for: runs[1].taskRunUUID)).path))
    }
}
