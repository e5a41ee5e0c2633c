import Foundation
import Glibc
import Logging
import Session
import TaskModel
import TestSupport
import Testing
import Upload

/// Retention and uploads together, end to end (docs/upload.md, "How a run gets to the bucket"):
/// the runs are finished through the daemon's own `RunStore` (the Session library), which writes
/// their archives and outbox entries as the daemon does when a run ends; recording real tasks
/// through the daemon would cost seconds of steps per run for the same files. Retention is then
/// applied by the real `activetaskd`, which prunes at its start (and after every run) before it
/// answers on its socket: runs past `retention.maxRuns` are only trimmed while they have no
/// receipt, and removed by the next start once activetask-upload has uploaded them.
extension UploadAgainstS3Tests {
    /// Finishes `count` runs through RunStore, newest first (an hour apart), each with a data
    /// file beside what the store writes.
    func storeFinishedRuns(count: Int) throws -> [RunDirectory] {
        let store = RunStore(dataDirectory: dataDirectory, logger: Logger(label: "UploadAgainstS3Tests"))
        let start = Date().addingTimeInterval(-86_400)
        return try (0..<count).map { age in
            let uuid = UUID()
            let run = try store.createRun(taskRunUUID: uuid, taskIdentifier: "Tapping", taskSource: Data(#"{"identifier":"Tapping"}"#.utf8),
                                          results: TaskResult(identifier: "Tapping", taskRunUUID: uuid, startDate: start), startDate: start)
            var generator = SeededGenerator(seed: 500 + UInt64(age))
            try Data((0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: run.url.appendingPathComponent("tapping.json"))
            var manifest = try run.readManifest()
            manifest.results.endDateTime = start.addingTimeInterval(3600 * Double(10 - age))
            _ = try store.finish(run, manifest: manifest, reason: .completed)
            return run
        }
    }

    /// Runs the real activetaskd on the data directory with `retention` until it answers on its
    /// socket and `condition` holds (its start-up prune has run), or 30 s pass, then stops it
    /// with SIGTERM; returns whether both came. (The daemon prunes before its service group
    /// takes over SIGTERM, so a SIGTERM before it listens would kill it outright.)
    func runDaemon(retention: [String: Any], name: String, until condition: () -> Bool) async throws -> Bool {
        let executable = try #require(PackagePaths.builtExecutable(named: "activetaskd"), "activetaskd was not built")
        let config = scratch.url.appendingPathComponent("\(name).json")
        // No metrics: never into the host's node_exporter directory, the default (docs/fleet.md).
        try JSONSerialization.data(withJSONObject: ["retention": retention, "metricsDirectory": ""]).write(to: config)
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ACTIVETASK_") }
        for variable in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"] {
            environment[variable] = nil
        }
        let socket = scratch.url.appendingPathComponent("\(name).sock").path
        let pid = try ChildSpawn.spawn([executable.path, "--config", config.path, "--data-dir", dataDirectory.path, "--socket", socket],
                                       environment: environment, standardOutput: scratch.url.appendingPathComponent("\(name).log").path, standardError: nil)
        let held = await waitUntil(30) { Self.accepts(socket) && condition() }
        kill(pid, SIGTERM)
        let status = try await onOwnThread { ChildSpawn.waitForExit(pid) }
        #expect(status == 0, "activetaskd exited with \(status); its log:\n\(log("\(name).log"))")
        return held
    }

    /// Whether a connection to the Unix socket at `path` succeeds now.
    static func accepts(_ path: String) -> Bool {
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    func contents(_ run: RunDirectory) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: run.url.path)) ?? [])
    }

    func outboxEntry(_ run: RunDirectory) -> URL {
        dataDirectory.appendingPathComponent("outbox/\(run.taskRunUUID.uuidString).json")
    }

    @Test("Retention with uploads pending removes none; once activetask-upload has uploaded them, the daemon's retention removes them")
    func retentionWaitsForUploads() async throws {
        let runs = try storeFinishedRuns(count: 3)
        let archives = try runs.map { run -> (name: String, bytes: Data) in
            let name = try #require(try run.readManifest().archive, "run \(run.taskRunUUID) has no archive")
            return (name, try Data(contentsOf: run.url.appendingPathComponent(name)))
        }
        #expect(runs.allSatisfy { FileManager.default.fileExists(atPath: outboxEntry($0).path) }, "RunStore wrote no outbox entries")
        let older = Array(runs.dropFirst())
        // keepUncollectedArchives false would remove an uncollected run whole without uploads;
        // with the outbox, only a receipt may let it go.
        let retention: [String: Any] = ["maxRuns": 1, "maxAgeDays": 0, "keepUncollectedArchives": false]

        let trimmed = try await runDaemon(retention: retention, name: "daemon-pending") {
            older.indices.allSatisfy { contents(older[$0]) == [RunDirectory.manifestName, archives[$0 + 1].name] }
        }
        #expect(trimmed, "the daemon's retention did not trim the runs past the limit: \(older.map(contents)); its log:\n\(log("daemon-pending.log"))")
        for (run, archive) in zip(runs, archives) {
            #expect(try Data(contentsOf: run.url.appendingPathComponent(archive.name)) == archive.bytes, "run \(run.taskRunUUID)'s archive was touched")
            #expect(FileManager.default.fileExists(atPath: outboxEntry(run).path))
        }
        #expect(contents(runs[0]).contains("tapping.json"), "the newest run, within the limit, was trimmed")

        let uploader = try startUploader(secret: moto.secretAccessKey, options: ["--s3-key-template", "pd-study/{taskRunUUID}.zip"], log: "retention-upload.log")
        let uploaded = await waitUntil(60) { runs.allSatisfy { FileManager.default.fileExists(atPath: receiptFile($0).path) } }
        kill(uploader, SIGTERM)
        _ = try await onOwnThread { ChildSpawn.waitForExit(uploader) }
        #expect(uploaded, "not every run was uploaded; the log:\n\(log("retention-upload.log"))")
        let objects = try await moto.objects(prefix: "pd-study/", into: scratch.url.appendingPathComponent("retention"))
        for (run, archive) in zip(runs, archives) {
            let object = try #require(objects["pd-study/\(run.taskRunUUID.uuidString).zip"], "run \(run.taskRunUUID) has no object")
            #expect(try Data(contentsOf: object.file) == archive.bytes, "run \(run.taskRunUUID)'s object differs from its archive")
        }
        // The uploader's SHA-256 of each archive (libcrypto), the daemon's (its own) and
        // coreutils' agree: the removal below rests on that comparison, not on sizes alone.
        for (run, archive) in zip(runs, archives) {
            let receipt = try JSONDecoder().decode(UploadReceipt.self, from: Data(contentsOf: receiptFile(run)))
            let sha256 = try #require(try CommandRunner.sha256sum(run.url.appendingPathComponent(archive.name)))
            #expect(receipt.archiveSHA256 == sha256, "run \(run.taskRunUUID)'s receipt")
            #expect(try run.readManifest().archiveSHA256 == sha256, "run \(run.taskRunUUID)'s manifest")
        }

        let removed = try await runDaemon(retention: retention, name: "daemon-uploaded") {
            older.allSatisfy { !FileManager.default.fileExists(atPath: $0.url.path) }
        }
        #expect(removed, "the daemon's retention kept uploaded runs past the limit: \(older.map(contents)); its log:\n\(log("daemon-uploaded.log"))")
        #expect(older.allSatisfy { !FileManager.default.fileExists(atPath: outboxEntry($0).path) }, "a removed run's outbox entry was left")
        #expect(contents(runs[0]).contains("tapping.json") && FileManager.default.fileExists(atPath: outboxEntry(runs[0]).path),
                "the newest run, within the limit, was touched")
    }

    func receiptFile(_ run: RunDirectory) -> URL {
        dataDirectory.appendingPathComponent("uploads/\(run.taskRunUUID.uuidString).uploaded.json")
    }
}
