import Daemon
import Foundation
import Logging
import Quality
import Testing
import TaskModel
import TestSupport
@testable import Session

/// A recording process killed with SIGKILL leaves cut files; recovery repairs them, marks the
/// run interrupted and writes its results and archive.
@Suite struct RecoveryTests {
    @Test func runKilledMidRecordingIsRecovered() async throws {
        let helper = try #require(PackagePaths.builtExecutable(named: "run-crash-writer"),
                                  "Build the tests first (swift build --build-tests): run-crash-writer is missing.")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let uuid = UUID()
        let dataDirectory = scratch.url
        let status = try await onOwnThread { try Self.recordAndKill(helper, dataDirectory: dataDirectory, uuid: uuid) }
        #expect(status == SIGKILL)

        let store = RunStore(dataDirectory: scratch.url, logger: Logger(label: "RecoveryTests"))
        let run = store.directory(for: uuid)
        let motionURL = run.url.appendingPathComponent("walk_motion.json")
        let wavURL = run.url.appendingPathComponent("roomSound.wav")
        // The kill left the motion file open-ended.
        #expect((try? JSONSerialization.jsonObject(with: Data(contentsOf: motionURL))) == nil)

        let reports = store.recoverInterruptedRuns(quality: QualityChecks())
        let report = try #require(reports.first)
        #expect(reports.count == 1)
        #expect(report.error == nil)
        #expect(report.problems.isEmpty)
        #expect(report.repairs.map(\.file).sorted() == ["roomSound.wav", "walk_motion.json"])
        if case .repaired = try #require(report.repairs.first { $0.file == "walk_motion.json" }?.outcome) {} else {
            Issue.record("The motion file should have needed repair.")
        }

        // Every complete record is kept and the file is a valid array.
        let records = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: motionURL)) as? [[String: Any]])
        #expect(records.count >= 300)
        #expect(records.allSatisfy { $0["sensorType"] as? String == "accelerometer" })
        // The WAV's sizes match its length, in whole frames.
        let wav = try Data(contentsOf: wavURL)
        func field(_ offset: Int) -> Int { wav[offset..<offset + 4].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) } }
        #expect(field(40) == wav.count - 44)
        #expect(field(4) == wav.count - 8)
        #expect((wav.count - 44) % 2 == 0)
        #expect(wav.count - 44 >= 300 * 160)

        let manifest = try run.readManifest()
        #expect(manifest.status == .final && manifest.finishReason == .interrupted)
        #expect(manifest.currentStepPath == nil && manifest.archive == run.archiveName)
        #expect(manifest.notes.first?.contains("interrupted at Walk/walk/walking") == true)
        #expect(manifest.controllers.flatMap(\.files).allSatisfy { $0.isFinished })

        let result = try ResultCoding.makeDecoder().decode(TaskResult.self, from: Data(contentsOf: run.url.appendingPathComponent("taskResult.json")))
        #expect(result.endDateTime != nil)
        let section = try #require(result.stepHistory.compactMap { $0.result as? SectionResult }.first { $0.identifier == "walk" })
        #expect(section.endDateTime != nil)
        let motion = try #require(section.asyncResults.first?.result as? FileResult)
        #expect(motion.identifier == "motion" && motion.relativePath == "walk_motion.json" && motion.startUptime == 100)
        #expect(motion.notes.first?.contains("repaired") == true)
        #expect((result.asyncResults.first?.result as? FileResult)?.relativePath == "roomSound.wav")
        #expect(try RunArchive.entryNames(of: run.archiveURL) == ["walk_motion.json", "roomSound.wav", "answers.json", "taskResult.json", "metadata.json"])
        // The recovered run's quality is checked: qc.json beside the run, not in the archive.
        let quality = try #require(report.quality as? QualityReport)
        #expect(quality.checks.contains { $0.identifier.hasPrefix("motion") })
        #expect(FileManager.default.fileExists(atPath: run.url.appendingPathComponent("qc.json").path))

        // A second start finds nothing left to recover.
        #expect(store.recoverInterruptedRuns().isEmpty)
    }

    /// Runs the helper until it reports recording, lets it write a little longer, kills it
    /// with SIGKILL and returns the signal that ended it.
    static func recordAndKill(_ helper: URL, dataDirectory: URL, uuid: UUID) throws -> Int32 {
        // Spawned and reaped here, not with Foundation's Process (see CommandRunner).
        let output = dataDirectory.deletingLastPathComponent().appendingPathComponent("writer-\(uuid.uuidString).out")
        let pid = try ChildSpawn.spawn([helper.path, dataDirectory.path, uuid.uuidString],
                                       environment: ProcessInfo.processInfo.environment, standardOutput: output.path, standardError: nil)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("recording") {
            Thread.sleep(forTimeInterval: 0.02)
        }
        Thread.sleep(forTimeInterval: 0.3)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFSIGNALED/WTERMSIG are macros Swift does not import.
        return (status & 0x7f) != 0 && (status & 0x7f) != 0x7f ? status & 0x7f : -1
    }
}
