import Foundation
import Logging
import TestSupport
import Testing
import Upload

@Suite("Leftovers of runs that left the outbox")
struct OutboxLeftoverSweepTests {
    /// A worker whose storage never answers: the scans under test need no network.
    static func worker(_ directories: UploadDirectories) throws -> UploadWorker {
        let location = try #require(S3Location(endpoint: "http://127.0.0.1:1", bucket: "b", region: "us-east-1", pathStyle: true))
        let uploader = ArchiveUploader(target: .s3(S3Client(location: location, credentials: S3Credentials(accessKeyID: "AK", secretAccessKey: "SK"))),
                                       keyTemplate: try ObjectKeyTemplate(ObjectKeyTemplate.defaultTemplate), study: "s", device: "d",
                                       directories: directories, logger: Logger(label: "OutboxLeftoverSweepTests"))
        return UploadWorker(uploader: uploader, logger: Logger(label: "OutboxLeftoverSweepTests"))
    }

    @Test("A scan removes the encrypted copies, receipts and multipart progress of runs no longer in the outbox and keeps those of runs in it")
    func sweep() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let directories = UploadDirectories(dataDirectory: scratch.url)
        try FileManager.default.createDirectory(at: directories.outbox, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directories.uploads, withIntermediateDirectories: true)
        let waiting = UUID(), deleted = UUID(), partial = UUID(), uploaded = UUID()
        // The waiting run's archive is missing: its upload is held at once, without the network.
        let entry = OutboxEntry(taskRunUUID: waiting, taskIdentifier: "T", archive: "runs/missing.zip", size: 1, finishReason: "completed", endDate: "2026-11-25T00:00:00Z")
        try JSONEncoder().encode(entry).write(to: directories.outbox.appendingPathComponent("\(waiting.uuidString).json"))
        // An uploaded run the daemon has not removed yet: its entry and receipt stay.
        try Data("{}".utf8).write(to: directories.outbox.appendingPathComponent("\(uploaded.uuidString).json"))
        for name in ["\(waiting.uuidString).zip.p7m", "\(deleted.uuidString).zip.p7m", "\(partial.uuidString).zip.p7m.partial", "\(deleted.uuidString).multipart.json",
                     "\(deleted.uuidString).uploaded.json", "\(uploaded.uuidString).uploaded.json", "queue.json"] {
            try Data("x".utf8).write(to: directories.uploads.appendingPathComponent(name))
        }
        try await Self.worker(directories).scanOnce()
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directories.uploads.path))
        #expect(left.contains("\(waiting.uuidString).zip.p7m"))
        #expect(!left.contains("\(deleted.uuidString).zip.p7m"))
        #expect(!left.contains("\(partial.uuidString).zip.p7m.partial"))
        // The daemon removed the deleted run's entry with the run: its receipt and multipart
        // progress are of no more use, and only the uploader may remove them.
        #expect(!left.contains("\(deleted.uuidString).multipart.json"))
        #expect(!left.contains("\(deleted.uuidString).uploaded.json"))
        #expect(left.contains("\(uploaded.uuidString).uploaded.json"), "a receipt whose run is still in the outbox stays for the daemon's retention")
        #expect(left.contains("queue.json"))
    }

    @Test("An outbox that cannot be listed removes no receipt")
    func unlistableOutbox() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let directories = UploadDirectories(dataDirectory: scratch.url)
        try FileManager.default.createDirectory(at: directories.uploads, withIntermediateDirectories: true)
        let receipt = directories.receipt(for: UUID())
        try Data("{}".utf8).write(to: receipt)
        try await Self.worker(directories).scanOnce()
        #expect(FileManager.default.fileExists(atPath: receipt.path))
    }
}
