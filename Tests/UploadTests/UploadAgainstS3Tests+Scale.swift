import Foundation
import Glibc
import TestSupport
import Testing
import Upload

/// Many runs and a large one: 100 queued runs all arrive; a 200 MiB archive survives a
/// `kill -9` of activetask-upload in the middle of its multipart upload and resumes it.
extension UploadAgainstS3Tests {
    @Test("100 queued runs all arrive, each with its receipt, each object equal to its archive")
    func hundredRuns() async throws {
        let runs = try (0..<100).map { try finishedRun(size: 2048 + 37 * $0, seed: 1000 + UInt64($0)) }
        let pid = try startUploader(secret: moto.secretAccessKey, options: ["--parallel", "4"], log: "hundred.log")
        defer { stopUploader(pid) }
        let all = await waitUntil(120) { runs.allSatisfy { FileManager.default.fileExists(atPath: receipt($0.entry).path) } }
        let missing = runs.filter { !FileManager.default.fileExists(atPath: receipt($0.entry).path) }.count
        #expect(all, "\(missing) of 100 runs have no receipt; the log:\n\(log("hundred.log").suffix(4000))")

        let objects = try await moto.objects(prefix: "pd-study/", into: scratch.url.appendingPathComponent("hundred"))
        #expect(objects.count == 100)
        for run in runs {
            guard let object = objects[key(run.entry)] else {
                Issue.record("run \(run.entry.taskRunUUID) has no object")
                continue
            }
            #expect(try Data(contentsOf: object.file) == run.bytes, "run \(run.entry.taskRunUUID)'s object differs from its archive")
            let stored = try JSONDecoder().decode(UploadReceipt.self, from: Data(contentsOf: receipt(run.entry)))
            #expect(stored.key == key(run.entry) && stored.etag == object.etag && stored.size == Int64(run.bytes.count))
        }
        #expect(try await moto.listing(prefix: "pd-study/").uploads.isEmpty)
    }

    /// A finished run whose archive is `mebibytes` MiB from /dev/urandom, written in 1 MiB
    /// pieces on a thread of its own (a second or two; never held in memory), and its SHA-256.
    func largeFinishedRun(mebibytes: Int) async throws -> (entry: OutboxEntry, sha256: String) {
        let uuid = UUID()
        let runDirectory = dataDirectory.appendingPathComponent("runs/\(uuid.uuidString)")
        try FileManager.default.createDirectory(at: runDirectory, withIntermediateDirectories: true)
        let archive = runDirectory.appendingPathComponent("\(uuid.uuidString).zip")
        try await onOwnThread {
            guard let random = FileHandle(forReadingAtPath: "/dev/urandom") else { throw MotoError("/dev/urandom cannot be opened.") }
            defer { try? random.close() }
            FileManager.default.createFile(atPath: archive.path, contents: nil)
            let output = try FileHandle(forWritingTo: archive)
            defer { try? output.close() }
            for _ in 0..<mebibytes {
                guard let piece = try random.read(upToCount: 1 << 20), piece.count == 1 << 20 else { throw MotoError("/dev/urandom gave a short read.") }
                try output.write(contentsOf: piece)
            }
        }
        let sum = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum", archive.path])
        let sha256 = String(sum.standardOutput.prefix { $0 != " " })
        guard sum.status == 0, sha256.count == 64 else { throw MotoError("sha256sum \(archive.path) failed: \(sum.standardError)") }
        let entry = OutboxEntry(taskRunUUID: uuid, taskIdentifier: "Tapping", archive: "runs/\(uuid.uuidString)/\(uuid.uuidString).zip",
                                size: Int64(mebibytes) << 20, finishReason: "completed", endDate: "2026-11-25T21:30:00Z")
        try JSONEncoder().encode(entry).write(to: dataDirectory.appendingPathComponent("outbox/\(uuid.uuidString).json"))
        return (entry, sha256)
    }

    @Test("A 200 MiB archive: kill -9 in the middle of its multipart upload, a restart resumes it; one object equal to the archive, no unfinished upload")
    func largeResumeAfterKill() async throws {
        let run = try await largeFinishedRun(mebibytes: 200)
        let partCount = 200 / 5
        let progress = dataDirectory.appendingPathComponent("uploads/\(run.entry.taskRunUUID.uuidString).multipart.json")
        func savedParts() -> Int {
            guard let data = try? Data(contentsOf: progress),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return 0 }
            return (object["parts"] as? [Any])?.count ?? 0
        }
        // Through a fault proxy holding the answer to part 9, one part at a time: the kill after
        // the 8th lands with most still to send, whatever the machine's load.
        let proxy = try await FaultProxy.start(upstreamPort: moto.port, scratch: scratch.url)
        defer { proxy.stop() }
        try proxy.configure(rules: [["method": "PUT", "contains": "partNumber=9&", "action": "hold"]])
        let first = try startUploader(secret: moto.secretAccessKey, options: ["--multipart-threshold", "1048576"],
                                      configuration: ["partsInParallel": 1], endpoint: proxy.endpoint, log: "large-first.log")
        let reached = await waitUntil(120) { savedParts() >= 8 }
        kill(first, SIGKILL)
        _ = try await onOwnThread { ChildSpawn.waitForExit(first) }
        #expect(reached, "8 parts were not saved within 120 s; the log:\n\(log("large-first.log"))")
        let before = savedParts()
        #expect((8..<partCount).contains(before), "\(before) of \(partCount) parts were saved before the kill")
        #expect(!FileManager.default.fileExists(atPath: receipt(run.entry).path))

        let second = try startUploader(secret: moto.secretAccessKey, options: ["--multipart-threshold", "1048576"], log: "large-second.log")
        defer { stopUploader(second) }
        #expect(await waitUntil(180) { FileManager.default.fileExists(atPath: receipt(run.entry).path) }, "no receipt; the log:\n\(log("large-second.log"))")
        #expect(log("large-second.log").contains("Resuming a multipart upload."), "the log:\n\(log("large-second.log"))")
        let object = try await moto.digest(key(run.entry))
        #expect(object.size == 200 << 20)
        #expect(object.sha256 == run.sha256, "the object differs from the archive")
        #expect(object.etag.hasSuffix("-\(partCount)\""), "a multipart ETag of \(partCount) parts, not \(object.etag)")
        let listing = try await moto.listing(prefix: "pd-study/")
        #expect(listing.keys == [key(run.entry)])
        #expect(listing.uploads.isEmpty, "unfinished uploads: \(listing.uploads)")
        #expect(!FileManager.default.fileExists(atPath: progress.path))
    }
}
