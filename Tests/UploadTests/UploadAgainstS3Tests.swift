import Foundation
import Glibc
import TestSupport
import Testing
import Upload

/// activetask-upload against a real S3 server (moto, authentication enforced): archives arrive
/// byte for byte, a wrong secret is held with S3's reason, multipart uploads arrive intact and
/// resume after kill -9 without a second object.
@Suite(
    "Upload against moto", .serialized,
    // One at a time: stopping an uploader waits for its exit on the calling thread, and 28 such
    // tests side by side held the cooperative pool long enough to starve the suites beside them
    // (docs/testing.md, "Where the time goes").
    // An S3 server and uploads of several MiB cost minutes under a sanitizer and test no
    // instrumented code of ours that the plain pass does not (docs/testing.md).
    .enabled(if: TestTiming.scale == 1, "skipped under a sanitizer: the S3 server tests run in the plain pass only"),
    .enabled(if: MotoServer.executable != nil, "skipped: moto_server is not installed (pip install 'moto[server]' boto3, scripts/setup.sh)")
)
final class UploadAgainstS3Tests {
    let scratch: ScratchDirectory
    let moto: MotoServer
    let dataDirectory: URL

    init() async throws {
        scratch = try ScratchDirectory()
        moto = try await MotoServer.start(scratch: scratch.url)
        dataDirectory = scratch.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: dataDirectory.appendingPathComponent("outbox"), withIntermediateDirectories: true)
    }

    deinit {
        moto.stop()
        scratch.remove()
    }

    static let partSize = 5 << 20

    /// A finished run's archive (`size` pseudo-random bytes) and its outbox entry.
    func finishedRun(size: Int, seed: UInt64) throws -> (entry: OutboxEntry, bytes: Data) {
        let uuid = UUID()
        var generator = SeededGenerator(seed: seed)
        var bytes = [UInt8](repeating: 0, count: size)
        for index in stride(from: 0, to: size, by: 8) {
            var value = generator.next()
            for offset in index..<min(index + 8, size) {
                bytes[offset] = UInt8(truncatingIfNeeded: value)
                value >>= 8
            }
        }
        let runDirectory = dataDirectory.appendingPathComponent("runs/\(uuid.uuidString)")
        try FileManager.default.createDirectory(at: runDirectory, withIntermediateDirectories: true)
        try Data(bytes).write(to: runDirectory.appendingPathComponent("\(uuid.uuidString).zip"))
        let entry = OutboxEntry(taskRunUUID: uuid, taskIdentifier: "Tapping", archive: "runs/\(uuid.uuidString)/\(uuid.uuidString).zip",
                                size: Int64(size), finishReason: "completed", endDate: "2026-11-25T21:30:00Z")
        try JSONEncoder().encode(entry).write(to: dataDirectory.appendingPathComponent("outbox/\(uuid.uuidString).json"))
        return (entry, Data(bytes))
    }

    func key(_ entry: OutboxEntry) -> String { "pd-study/tablet-1/2026-11-25/Tapping/\(entry.taskRunUUID.uuidString).zip" }

    /// Starts activetask-upload with a configuration file (`secret` in its own file) and `options`;
    /// `endpoint` replaces moto's own (the fault proxy's, in front of it); `environment` is added to
    /// the test's.
    func startUploader(secret: String, options: [String] = [], configuration extra: [String: Any] = [:], endpoint: String? = nil,
                       environment added: [String: String] = [:],
                       log: String) throws -> pid_t {
        let executable = try #require(PackagePaths.builtExecutable(named: "activetask-upload"), "activetask-upload was not built")
        let secretFile = scratch.url.appendingPathComponent("secret-\(UUID().uuidString)")
        try Data("\(secret)\n".utf8).write(to: secretFile)
        let configuration: [String: Any] = [
            // No metrics: never into the host's node_exporter directory, the default (docs/fleet.md).
            "study": "pd-study", "device": "tablet-1", "pollSeconds": 0.2, "partSize": Self.partSize, "metricsDirectory": "",
            "s3": ["endpoint": endpoint ?? moto.endpoint, "bucket": moto.bucket, "region": "us-east-1", "pathStyle": true,
                   "accessKeyID": moto.accessKeyID, "secretAccessKeyFile": secretFile.path],
        ]
        let configFile = scratch.url.appendingPathComponent("upload-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: configuration.merging(extra) { $1 }).write(to: configFile)
        var environment = ProcessInfo.processInfo.environment
        environment["CREDENTIALS_DIRECTORY"] = nil
        environment.merge(added) { $1 }
        return try ChildSpawn.spawn([executable.path, "--config", configFile.path, "--data-dir", dataDirectory.path] + options,
                                    environment: environment, standardOutput: scratch.url.appendingPathComponent(log).path, standardError: nil)
    }

    func stopUploader(_ pid: pid_t) {
        kill(pid, SIGTERM)
        _ = ChildSpawn.waitForExit(pid)
    }

    func log(_ name: String) -> String {
        (try? String(contentsOf: scratch.url.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    func receipt(_ entry: OutboxEntry) -> URL {
        dataDirectory.appendingPathComponent("uploads/\(entry.taskRunUUID.uuidString).uploaded.json")
    }

    /// Starts the uploader on multipart uploads through a fault proxy that holds the answer to
    /// part 2 (the storage takes it; the uploader never hears back), and kills it (SIGKILL) once
    /// `progress` records a part: the kill lands between parts whatever the machine's load, not
    /// by a rate limit and a poll racing the upload. Returns whether a part was recorded within
    /// 90 s.
    func killAfterFirstPart(progress: URL, configuration: [String: Any] = [:], log name: String) async throws -> Bool {
        let proxy = try await FaultProxy.start(upstreamPort: moto.port, scratch: scratch.url)
        defer { proxy.stop() }
        try proxy.configure(rules: [["method": "PUT", "contains": "partNumber=2&", "action": "hold"]])
        let uploader = try startUploader(secret: moto.secretAccessKey, options: ["--multipart-threshold", "1048576"],
                                         configuration: configuration.merging(["partsInParallel": 1]) { $1 }, endpoint: proxy.endpoint, log: name)
        let saved = await waitUntil(90) {
            guard let data = try? Data(contentsOf: progress),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
            return ((object["parts"] as? [Any])?.count ?? 0) >= 1
        }
        kill(uploader, SIGKILL)
        _ = ChildSpawn.waitForExit(uploader)
        return saved
    }

    /// Polls `condition` every 100 ms for up to `seconds`, sleeping between polls rather than
    /// holding one of the few concurrency threads the suites beside this one need.
    func waitUntil(_ seconds: Double, _ condition: () async -> Bool) async -> Bool {
        await Self.waitUntil(seconds, condition)
    }

    /// `waitUntil` for code without an instance (FleetMetricsTests).
    static func waitUntil(_ seconds: Double, _ condition: () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return await condition()
    }

    @Test("A finished run's archive arrives byte for byte under its key, with a receipt for retention")
    func singleObject() async throws {
        let run = try finishedRun(size: 300_000, seed: 1)
        let pid = try startUploader(secret: moto.secretAccessKey, log: "single.log")
        defer { stopUploader(pid) }
        #expect(await waitUntil(60) { FileManager.default.fileExists(atPath: receipt(run.entry).path) }, "no receipt; the log:\n\(log("single.log"))")
        let object = try await moto.object(key(run.entry), scratch: scratch.url)
        #expect(object.data == run.bytes)
        let stored = try JSONDecoder().decode(UploadReceipt.self, from: Data(contentsOf: receipt(run.entry)))
        #expect(stored.key == key(run.entry))
        #expect(stored.etag == object.etag)
        #expect(log("single.log").contains(run.entry.taskRunUUID.uuidString))
    }

    @Test("Several runs upload in parallel and all arrive")
    func parallelRuns() async throws {
        let runs = try (0..<3).map { try finishedRun(size: 200_000 + $0, seed: 10 + UInt64($0)) }
        let pid = try startUploader(secret: moto.secretAccessKey, options: ["--parallel", "3"], log: "parallel.log")
        defer { stopUploader(pid) }
        #expect(await waitUntil(60) { runs.allSatisfy { FileManager.default.fileExists(atPath: receipt($0.entry).path) } }, "the log:\n\(log("parallel.log"))")
        for run in runs {
            #expect(try await moto.object(key(run.entry), scratch: scratch.url).data == run.bytes)
        }
    }

    @Test("A wrong secret is held with SignatureDoesNotMatch and uploads nothing")
    func wrongSecret() async throws {
        let run = try finishedRun(size: 10_000, seed: 2)
        let pid = try startUploader(secret: "not-the-secret", log: "wrong.log")
        defer { stopUploader(pid) }
        #expect(await waitUntil(60) { log("wrong.log").contains("SignatureDoesNotMatch") }, "the log:\n\(log("wrong.log"))")
        #expect(log("wrong.log").contains("The upload is held"))
        #expect(!FileManager.default.fileExists(atPath: receipt(run.entry).path))
        #expect(try await moto.listing(prefix: "pd-study/").keys.isEmpty)
        // activetaskctl uploads shows it held, with the reason and when it is tried next.
        let ctl = try #require(PackagePaths.builtExecutable(named: "activetaskctl"), "activetaskctl is not built")
        var listed: [String: Any] = [:]
        let shown = await waitUntil(10) {
            guard let output = try? await CommandRunner.run(ctl, ["uploads", "--data-dir", dataDirectory.path, "--json"]),
                  let object = try? JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any],
                  let first = (object["uploads"] as? [[String: Any]])?.first else { return false }
            listed = first
            return first["state"] as? String == "held"
        }
        #expect(shown, "\(listed)")
        #expect(listed["lastErrorCode"] as? String == "SignatureDoesNotMatch" && listed["attempts"] as? Int == 1, "\(listed)")
        #expect(listed["nextTry"] is String, "\(listed)")
    }

    @Test("Above the threshold the archive goes as a multipart upload and arrives intact")
    func multipart() async throws {
        let run = try finishedRun(size: 2 * Self.partSize + 123_457, seed: 3)
        let pid = try startUploader(secret: moto.secretAccessKey, options: ["--multipart-threshold", "1048576"], log: "multipart.log")
        defer { stopUploader(pid) }
        #expect(await waitUntil(90) { FileManager.default.fileExists(atPath: receipt(run.entry).path) }, "no receipt; the log:\n\(log("multipart.log"))")
        let object = try await moto.object(key(run.entry), scratch: scratch.url)
        #expect(object.data == run.bytes)
        #expect(object.etag.hasSuffix("-3\""), "a multipart ETag of 3 parts, not \(object.etag)")
        #expect(try await moto.listing(prefix: "pd-study/").uploads.isEmpty)
        // Confirmed at the first attempt: the Complete answer parsed and the HEAD matched (a
        // store answer misread would show as a retried failure).
        #expect(!log("multipart.log").contains("tried again later"), "the log:\n\(log("multipart.log"))")
        let stored = try JSONDecoder().decode(UploadReceipt.self, from: Data(contentsOf: receipt(run.entry)))
        #expect(stored.checksumSHA256 != nil, "moto gives the composite checksum on HEAD for a multipart upload")
    }

    @Test("kill -9 in the middle of a multipart upload, then a restart: it resumes with the same upload, one object, intact")
    func resumeAfterKill() async throws {
        let run = try finishedRun(size: 3 * Self.partSize + 1_000, seed: 4)
        let progress = dataDirectory.appendingPathComponent("uploads/\(run.entry.taskRunUUID.uuidString).multipart.json")
        let partsSaved = try await killAfterFirstPart(progress: progress, log: "first.log")
        #expect(partsSaved, "no part was recorded; the log:\n\(log("first.log"))")
        // The kill came in the middle: some of the 4 parts were still to be sent.
        let savedParts = ((try? JSONSerialization.jsonObject(with: Data(contentsOf: progress)) as? [String: Any])?["parts"] as? [Any])?.count ?? 0
        #expect((1..<4).contains(savedParts), "\(savedParts) parts were saved before the kill")
        #expect(!FileManager.default.fileExists(atPath: receipt(run.entry).path))
        let uploadID = (try? JSONSerialization.jsonObject(with: Data(contentsOf: progress)) as? [String: Any])?["uploadID"] as? String

        let second = try startUploader(secret: moto.secretAccessKey, options: ["--multipart-threshold", "1048576"], log: "second.log")
        defer { stopUploader(second) }
        #expect(await waitUntil(90) { FileManager.default.fileExists(atPath: receipt(run.entry).path) }, "no receipt; the log:\n\(log("second.log"))")
        #expect(log("second.log").contains("Resuming a multipart upload."))
        #expect(uploadID != nil)
        let object = try await moto.object(key(run.entry), scratch: scratch.url)
        #expect(object.data == run.bytes)
        let listing = try await moto.listing(prefix: "pd-study/")
        #expect(listing.keys == [key(run.entry)])
        #expect(listing.uploads.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: progress.path))
    }
}
