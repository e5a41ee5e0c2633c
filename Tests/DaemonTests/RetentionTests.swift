import Foundation
import Glibc
import Testing
import TestSupport

/// Every documented value of `retention.maxRuns`, `retention.maxAgeDays` and
/// `retention.keepUncollectedArchives` (docs/configuration.md), through the real daemon: one
/// daemon that keeps everything records three short runs, then a daemon with the settings under
/// test starts on the same data directory. It applies retention at start, before it listens
/// (docs/runs.md, "Retention"), so what the directory holds once the socket answers is what the
/// settings did. A 0 once removed or trimmed every finished run.
@Suite("activetaskd: retention settings")
struct RetentionTests {
    /// What became of one run.
    enum Fate: String, Sendable {
        /// Every file is still there.
        case whole
        /// Only `run.json` and the archive are left, waiting for collection.
        case trimmed
        /// The run directory is gone.
        case removed
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var retention: String
        /// Seconds between the last run's end and the second daemon's start.
        var wait: Double = 0
        /// The three runs' fates, oldest first.
        var fates: [Fate]
        var testDescription: String { "\(retention) → \(fates.map(\.rawValue).joined(separator: ", "))" }
    }

    static let cases: [Case] = [
        Case(retention: #"{"maxRuns": 0, "maxAgeDays": 0}"#, fates: [.whole, .whole, .whole]),
        Case(retention: #"{"maxRuns": 0, "maxAgeDays": 0, "keepUncollectedArchives": false}"#, fates: [.whole, .whole, .whole]),
        Case(retention: #"{}"#, fates: [.whole, .whole, .whole]),
        Case(retention: #"{"maxRuns": 2, "maxAgeDays": 0}"#, fates: [.trimmed, .whole, .whole]),
        Case(retention: #"{"maxRuns": 2, "maxAgeDays": 0, "keepUncollectedArchives": false}"#, fates: [.removed, .whole, .whole]),
        Case(retention: #"{"maxRuns": 1, "keepUncollectedArchives": true}"#, fates: [.trimmed, .trimmed, .whole]),
        Case(retention: #"{"maxRuns": 3, "maxAgeDays": 0}"#, fates: [.whole, .whole, .whole]),
        // 0.00001 days is 0.864 s: every run is older than that 1.5 s after the last one ended.
        Case(retention: #"{"maxRuns": 0, "maxAgeDays": 0.00001}"#, wait: 1.5, fates: [.trimmed, .trimmed, .trimmed]),
        Case(retention: #"{"maxRuns": 0, "maxAgeDays": 0.00001, "keepUncollectedArchives": false}"#, wait: 1.5, fates: [.removed, .removed, .removed]),
        Case(retention: #"{"maxRuns": 0, "maxAgeDays": 1}"#, wait: 1.5, fates: [.whole, .whole, .whole]),
    ]

    /// A task that finishes at once: an instruction and a completion step, no recorder.
    static let quickTask = """
    {
        "identifier": "Quick",
        "steps": [
            { "identifier": "hello", "type": "instruction", "title": "Hello" },
            { "identifier": "done", "type": "completion", "title": "Done" }
        ]
    }
    """

    /// Records `count` runs on a daemon that keeps everything; returns their UUIDs, oldest first.
    static func recordRuns(_ fixture: DaemonFixture, count: Int) async throws -> [String] {
        let keepAll = try fixture.write(task: #"{"retention": {"maxRuns": 0, "maxAgeDays": 0}}"#, name: "keep-all")
        let daemon = try await fixture.start(fixture.arguments() + ["--config", keepAll])
        let task = try fixture.write(task: quickTask, name: "quick")
        var runs: [String] = []
        for _ in 0..<count {
            let output = try await fixture.ctl("run", task, "--auto", "--json")
            #expect(output.status == 0, "\(output.standardError)")
            runs.append(try #require(try RunFiles.lastLine(of: output.standardOutput)["taskRunUUID"] as? String))
        }
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output)")
        return runs
    }

    static func fate(of run: String, in data: URL) throws -> Fate {
        let directory = data.appendingPathComponent("runs/\(run)")
        guard FileManager.default.fileExists(atPath: directory.path) else { return .removed }
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        if names == ["run.json", "\(run).zip"] { return .trimmed }
        #expect(names.isSuperset(of: ["run.json", "\(run).zip", "taskResult.json", "metadata.json"]), "\(run): \(names.sorted())")
        return .whole
    }

    @Test("Retention at start keeps, trims or removes exactly the runs docs/configuration.md says", arguments: cases)
    func atStart(_ scenario: Case) async throws {
        let fixture = try await DaemonFixture("retention")
        let runs = try await Self.recordRuns(fixture, count: 3)
        #expect(try runs.map { try Self.fate(of: $0, in: fixture.dataDirectory) } == [.whole, .whole, .whole])
        if scenario.wait > 0 { try await Task.sleep(for: .seconds(scenario.wait)) }

        let config = try fixture.write(task: #"{"retention": \#(scenario.retention)}"#, name: "retention")
        let daemon = try await fixture.start(fixture.arguments() + ["--config", config])
        defer { daemon.send(SIGTERM) }
        #expect(try runs.map { try Self.fate(of: $0, in: fixture.dataDirectory) } == scenario.fates, "\(daemon.output)")
        // The daemon lists what is left, trimmed runs included.
        let listed = try await fixture.ctl("runs", "--json")
        #expect(listed.status == 0, "\(listed.standardError)")
        for (run, fate) in zip(runs, scenario.fates) {
            #expect(listed.standardOutput.contains(run) == (fate != .removed), "\(run) \(fate): \(listed.standardOutput)")
        }
    }

    @Test("Retention also applies after each run: with maxRuns 1 and uncollected archives not kept, the older run goes once the next finishes")
    func afterEachRun() async throws {
        let fixture = try await DaemonFixture("retention-live")
        let config = try fixture.write(task: #"{"retention": {"maxRuns": 1, "maxAgeDays": 0, "keepUncollectedArchives": false}}"#, name: "retention")
        let daemon = try await fixture.start(fixture.arguments() + ["--config", config])
        defer { daemon.send(SIGTERM) }
        let task = try fixture.write(task: Self.quickTask, name: "quick")
        var runs: [String] = []
        for _ in 0..<2 {
            let output = try await fixture.ctl("run", task, "--auto", "--json")
            #expect(output.status == 0, "\(output.standardError)")
            runs.append(try #require(try RunFiles.lastLine(of: output.standardOutput)["taskRunUUID"] as? String))
        }
        // Retention runs once the finished run's events are forwarded: wait for it (bounded).
        let deadline = Date().addingTimeInterval(20 * TestTiming.scale)
        while try Self.fate(of: runs[0], in: fixture.dataDirectory) != .removed, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try Self.fate(of: runs[0], in: fixture.dataDirectory) == .removed)
        #expect(try Self.fate(of: runs[1], in: fixture.dataDirectory) == .whole)
    }

    @Test("With uploads configured, only a receipt for the run's own archive lets retention remove it: no receipt, no deletion")
    func receiptMustMatchArchive() async throws {
        let fixture = try await DaemonFixture("retention-receipts")
        // The outbox existing is what "uploads are configured" means (docs/upload.md).
        try FileManager.default.createDirectory(at: fixture.dataDirectory.appendingPathComponent("outbox"), withIntermediateDirectories: true)
        let runs = try await Self.recordRuns(fixture, count: 7)
        let uploads = fixture.dataDirectory.appendingPathComponent("uploads")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        func archiveSize(_ run: String) throws -> Int {
            let archive = fixture.dataDirectory.appendingPathComponent("runs/\(run)/\(run).zip").path
            return (try FileManager.default.attributesOfItem(atPath: archive)[.size] as? NSNumber)?.intValue ?? -1
        }
        func receipt(_ run: String, etag: String = "\"9a0364b9\"", size: Int, archiveSize: Int? = nil, key: String? = nil,
                     sha256: String? = nil) throws {
            var object: [String: Any] = ["taskRunUUID": run, "key": key ?? "study/tablet/2026-11-25/Quick/\(run).zip", "etag": etag, "size": size,
                                         "uploadedDate": "2026-11-25T12:00:00Z"]
            if let archiveSize { object["archiveSize"] = archiveSize }
            if let sha256 { object["archiveSHA256"] = sha256 }
            try JSONSerialization.data(withJSONObject: object).write(to: uploads.appendingPathComponent("\(run).uploaded.json"))
        }
        // A receipt that does not read, one without an ETag, one for another archive's size: the
        // runs stay (trimmed). One for the archive, plain or encrypted (its size the copy's, the
        // archive's in archiveSize): the run goes. The archive's size with another archive's
        // SHA-256: it stays; with its own SHA-256 (sha256sum's): it goes.
        try Data("{}".utf8).write(to: uploads.appendingPathComponent("\(runs[0]).uploaded.json"))
        try receipt(runs[1], etag: "", size: try archiveSize(runs[1]))
        try receipt(runs[2], size: try archiveSize(runs[2]) + 1)
        try receipt(runs[3], size: try archiveSize(runs[3]))
        try receipt(runs[4], size: try archiveSize(runs[4]) + 500, archiveSize: try archiveSize(runs[4]),
                    key: "study/tablet/2026-11-25/Quick/\(runs[4]).zip.p7m")
        try receipt(runs[5], size: try archiveSize(runs[5]), sha256: String(repeating: "0", count: 64))
        let archive6 = fixture.dataDirectory.appendingPathComponent("runs/\(runs[6])/\(runs[6]).zip")
        try receipt(runs[6], size: try archiveSize(runs[6]) + 500, archiveSize: try archiveSize(runs[6]),
                    key: "study/tablet/2026-11-25/Quick/\(runs[6]).zip.p7m", sha256: try #require(try CommandRunner.sha256sum(archive6)))
        // 0.00001 days is 0.864 s: every run is older than that 1.5 s after the last one ended.
        try await Task.sleep(for: .seconds(1.5))
        let config = try fixture.write(task: #"{"retention": {"maxRuns": 0, "maxAgeDays": 0.00001, "keepUncollectedArchives": false}}"#, name: "retention")
        let daemon = try await fixture.start(fixture.arguments() + ["--config", config])
        defer { daemon.send(SIGTERM) }
        #expect(try runs.map { try Self.fate(of: $0, in: fixture.dataDirectory) } == [.trimmed, .trimmed, .trimmed, .removed, .removed, .trimmed, .removed],
                "\(daemon.output)")
        #expect(daemon.output.contains("does not match its archive"), "\(daemon.output)")
        #expect(daemon.output.contains("the run recorded"), "the SHA-256 mismatch logged with its reason: \(daemon.output)")
    }
}
