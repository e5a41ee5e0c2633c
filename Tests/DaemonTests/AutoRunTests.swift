import Foundation
import Testing
import TestSupport
import ZIPFoundation

/// `activetaskctl run FILE --auto --json` through the real daemon: the run directory as
/// docs/session.md and the results section of the design describe it.
@Suite("activetaskd: a task run through activetaskctl --auto")
struct AutoRunTests {
    @Test("The run directory holds the task result, the motion file with markers, metadata and the archive")
    func autoRunWritesTheRunDirectory() async throws {
        let fixture = try DaemonFixture("auto")
        let daemon = try await fixture.start()
        let file = try fixture.write(task: DaemonTasks.walk(walking: 2), name: "walk")
        let run = try await fixture.ctl("run", file, "--auto", "--json")
        #expect(run.status == 0, "\(run.standardError)\n\(daemon.output)")
        let last = try #require(run.standardOutput.split(separator: "\n").last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(summary["status"] as? String == "completed")
        let uuid = try #require(summary["taskRunUUID"] as? String)
        let directory = URL(fileURLWithPath: try #require(summary["runDirectory"] as? String))
        let archive = URL(fileURLWithPath: try #require(summary["archive"] as? String))
        #expect(directory.path == fixture.dataDirectory.appendingPathComponent("runs/\(uuid)").path)
        #expect(FileManager.default.fileExists(atPath: directory.path))
        #expect(archive.lastPathComponent == "\(uuid).zip" && FileManager.default.fileExists(atPath: archive.path))

        // taskResult.json: the task, the section's motion file, the task-level microphone.
        let result = try RunFiles.object(directory.appendingPathComponent("taskResult.json"))
        #expect(result["type"] as? String == "task")
        #expect(result["identifier"] as? String == "DaemonWalk")
        #expect(result["taskRunUUID"] as? String == uuid)
        #expect(result["endDate"] != nil)
        let history = result["stepHistory"] as? [[String: Any]] ?? []
        #expect(history.map { $0["identifier"] as? String } == ["overview", "walk", "done"])
        let section = history.first { $0["identifier"] as? String == "walk" }
        #expect((section?["stepHistory"] as? [[String: Any]] ?? []).map { $0["identifier"] as? String } == ["countdown", "walking"])
        let sectionFiles = section?["asyncResults"] as? [[String: Any]] ?? []
        #expect(sectionFiles.map { $0["identifier"] as? String } == ["motion"])
        let motionName = try #require(sectionFiles.first?["relativePath"] as? String)
        #expect((result["asyncResults"] as? [[String: Any]] ?? []).contains { $0["identifier"] as? String == "roomSound" })
        #expect((result["path"] as? [[String: Any]] ?? []).map { $0["identifier"] as? String } == ["overview", "walk", "done"])

        // The motion file: markers at the step paths, about 100 Hz without gaps over 1 s + 2 s.
        let motion = try RunFiles.Motion(directory.appendingPathComponent(motionName))
        #expect(motion.markers.map { $0["stepPath"] as? String } == ["DaemonWalk/walk/countdown", "DaemonWalk/walk/walking"])
        #expect(motion.countFits(frequency: 100), "\(motion.samples.count) samples over \(motion.span) s")
        #expect(motion.covers(seconds: 3), "span \(motion.span) s")
        #expect(motion.longestGap < 0.05, "longest gap \(motion.longestGap) s")

        // metadata.json (RSDDataArchive's keys) and the archive's entries.
        let metadata = try RunFiles.object(directory.appendingPathComponent("metadata.json"))
        for key in ["deviceInfo", "deviceTypeIdentifier", "appName", "appVersion", "rsdFrameworkVersion", "taskIdentifier",
                    "taskRunUUID", "startDate", "endDate", "files"] {
            #expect(metadata[key] != nil, "metadata.json has no \(key)")
        }
        #expect(metadata["taskRunUUID"] as? String == uuid)
        let files = metadata["files"] as? [[String: Any]] ?? []
        let byName = Dictionary(files.compactMap { file in (file["filename"] as? String).map { ($0, file) } }, uniquingKeysWith: { a, _ in a })
        #expect(byName[motionName]?["stepPath"] as? String == "walk")
        #expect(byName[motionName]?["identifier"] as? String == "motion")
        #expect(byName[motionName]?["contentType"] as? String == "application/json")
        #expect(byName["roomSound.wav"] != nil)
        #expect(RunFiles.isCompleteWAV(directory.appendingPathComponent("roomSound.wav")))
        let entries = Set(try Archive(url: archive, accessMode: .read).map(\.path))
        #expect(entries.isSuperset(of: ["taskResult.json", "answers.json", "metadata.json", motionName, "roomSound.wav"]), "\(entries)")
        #expect(Set(byName.keys).subtracting(entries).isEmpty, "metadata names files the archive lacks: \(entries)")
        #expect(!entries.contains("run.json"))

        // The daemon's own views of the run agree.
        let runs = try await fixture.ctl("runs")
        #expect(runs.standardOutput.contains("\(uuid)\tcompleted\tDaemonWalk"), "\(runs.standardOutput)")
        let archived = try await fixture.ctl("archive", uuid)
        #expect(archived.standardOutput == "\(archive.path)\n")

        // Quality: qc.json in the run directory (not archived), run.qc and run.report.
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("qc.json").path))
        #expect(!entries.contains("qc.json"))
        let client = try LineClient(path: fixture.socket)
        let quality = try client.result("run.qc", ["taskRunUUID": uuid])
        let qualitySummary = quality["summary"] as? [String: Any]
        #expect(["ok", "warning", "failed"].contains(qualitySummary?["verdict"] as? String ?? ""))
        let checks = (quality["report"] as? [String: Any])?["checks"] as? [[String: Any]] ?? []
        #expect(checks.contains { $0["check"] as? String == "gaps" && $0["identifier"] as? String == "motion" } || !checks.isEmpty)
        let report = try client.result("run.report", ["taskRunUUID": uuid])
        let reportPath = try #require(report["report"] as? String)
        let html = try String(contentsOfFile: reportPath, encoding: .utf8)
        #expect(html.contains("<svg") && html.contains("DaemonWalk"))
        let missing = try client.call("run.qc", ["taskRunUUID": UUID().uuidString])
        #expect((missing["error"] as? [String: Any])?["code"] as? Int == -32004)

        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: 15) == .exited(0), "\(daemon.output)")
    }

    @Test("taskFinished carries the run's quality verdict")
    func taskFinishedCarriesQuality() async throws {
        let fixture = try DaemonFixture("quality")
        let daemon = try await fixture.start()
        let file = try fixture.write(task: DaemonTasks.walk(walking: 1), name: "walk")
        let watcher = try LineClient(path: fixture.socket)
        _ = try watcher.result("events.subscribe", ["kinds": ["taskFinished"]])
        let run = try await fixture.ctl("run", file, "--auto", "--json")
        #expect(run.status == 0, "\(run.standardError)")
        let finished = try watcher.waitForEvent("taskFinished", within: 30)
        let quality = finished["quality"] as? [String: Any]
        #expect(["ok", "warning", "failed"].contains(quality?["verdict"] as? String ?? ""), "\(finished)")
        #expect(quality?["problems"] is [String])
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: 15) == .exited(0), "\(daemon.output)")
    }
}
