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

    @Test("With uploads configured, retention removes a run only after its upload receipt, whatever keepUncollectedArchives says")
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
        try Data("{}".utf8).write(to: store.uploadReceiptsDirectory.appendingPathComponent("\(runs[1].taskRunUUID.uuidString).uploaded.json"))
        #expect(try store.prune(policy, now: RunStoreTests.end).removed == [runs[1].taskRunUUID])
        #expect(!FileManager.default.fileExists(atPath: runs[1].url.path))
        #expect(!FileManager.default.fileExists(atPath: store.outboxDirectory.appendingPathComponent("\(runs[1].taskRunUUID.uuidString).json").path))
        #expect(FileManager.default.fileExists(atPath: runs[0].url.appendingPathComponent(runs[0].archiveName).path))
    }
}
