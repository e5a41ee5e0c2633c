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
        let fixture = try await DaemonFixture("auto")
        let (daemon, room) = try await Self.startInARoom(fixture)
        defer { withExtendedLifetime(room) {} }
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
        try Self.expectWalkQuality(quality)
        let report = try client.result("run.report", ["taskRunUUID": uuid])
        let reportPath = try #require(report["report"] as? String)
        let html = try String(contentsOfFile: reportPath, encoding: .utf8)
        #expect(html.contains("<svg") && html.contains("DaemonWalk"))
        let missing = try client.call("run.qc", ["taskRunUUID": UUID().uuidString])
        #expect((missing["error"] as? [String: Any])?["code"] as? Int == -32004)

        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output)")
    }

    @Test("taskFinished carries the run's quality verdict")
    func taskFinishedCarriesQuality() async throws {
        let fixture = try await DaemonFixture("quality")
        let (daemon, room) = try await Self.startInARoom(fixture)
        defer { withExtendedLifetime(room) {} }
        let file = try fixture.write(task: DaemonTasks.walk(walking: 1), name: "walk")
        let watcher = try LineClient(path: fixture.socket)
        _ = try watcher.result("events.subscribe", ["kinds": ["taskFinished"]])
        let run = try await fixture.ctl("run", file, "--auto", "--json")
        #expect(run.status == 0, "\(run.standardError)")
        let finished = try watcher.waitForEvent("taskFinished", within: 30)
        // The event carries the run's verdict and problems, those of run.qc's report, which is
        // itself the walk's (`expectWalkQuality`).
        let summary = try RunFiles.lastLine(of: run.standardOutput)
        let uuid = try #require(summary["taskRunUUID"] as? String)
        let report = try LineClient(path: fixture.socket).result("run.qc", ["taskRunUUID": uuid])
        let expected = try Self.expectWalkQuality(report)
        let quality = finished["quality"] as? [String: Any]
        #expect(finished["taskRunUUID"] as? String == uuid, "\(finished)")
        #expect(quality?["verdict"] as? String == expected.verdict, "\(finished)")
        #expect(quality?["problems"] as? [String] == expected.problems, "\(finished)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output)")
    }

    /// The checks of `DaemonTasks.walk` on `sim:walking` (docs/quality.md): per sensor type of
    /// the section's motion file the rate, sample count and gaps, and on the raw sensors stuck
    /// and clipped values, gravity (accelerometer) and gyroscope bias (gyro); the microphone's
    /// duration, overruns, levels, silence and clipping; the one spoken prompt; no failed
    /// controller. Each once.
    static let walkChecks: [String] = [
        "motion/accelerometer rate", "motion/accelerometer sampleCount", "motion/accelerometer gaps",
        "motion/accelerometer stuck", "motion/accelerometer clipping", "motion/accelerometer gravity",
        "motion/gyro rate", "motion/gyro sampleCount", "motion/gyro gaps",
        "motion/gyro stuck", "motion/gyro clipping", "motion/gyro gyroBias",
        "motion/userAcceleration rate", "motion/userAcceleration sampleCount", "motion/userAcceleration gaps",
        "roomSound duration", "roomSound overruns", "roomSound levels", "roomSound silence", "roomSound clipping",
        "prompts late", "controllers controllerFailure",
    ]

    /// Checks a `run.qc` answer for a healthy walk and returns its verdict and problems.
    ///
    /// The checks are exactly `walkChecks`, each once, and every one is `ok` but the audio's
    /// `duration`, whose verdict this configuration does not fix: the fixture's microphone is a
    /// PulseAudio monitor whose stream mostly delivers its first frame only after the prompt
    /// starts playing, 1.0 to 1.4 s after the recorder started (`CorpusSessionTests` sees the
    /// same second), and sometimes on time. So that check must be `warning` when it found the
    /// recording 0.5 s short or more (its reason then says how much is missing), `ok` below,
    /// never `failed` (2 s; widened under a sanitizer's slowdown, `TestTiming`); and the run's
    /// verdict and problems must be that check's.
    @discardableResult
    static func expectWalkQuality(_ quality: [String: Any]) throws -> (verdict: String, problems: [String]) {
        let report = quality["report"] as? [String: Any]
        let checks = report?["checks"] as? [[String: Any]] ?? []
        func name(_ check: [String: Any]) -> String { "\(check["identifier"] as? String ?? "?") \(check["check"] as? String ?? "?")" }
        #expect(checks.map(name).sorted() == walkChecks.sorted(), "\(checks)")
        let duration = try #require(checks.first { name($0) == "roomSound duration" }, "\(checks)")
        let short = try #require((duration["figures"] as? [String: Any])?["shortSeconds"] as? Double, "\(duration)")
        #expect(short < TestTiming.tolerance(2.0), "\(duration)")
        let verdict = short >= 0.5 ? "warning" : "ok"
        #expect(duration["verdict"] as? String == verdict, "\(duration)")
        let message = duration["message"] as? String ?? ""
        let problems = verdict == "ok" ? [] : [message]
        if verdict == "warning" {
            #expect(message.hasPrefix("Only ") && message.contains(" s the microphone ran: "), "\(duration)")
        }
        let notOK = checks.filter { $0["verdict"] as? String != "ok" }.map { "\(name($0)) \($0["verdict"] as? String ?? "?")" }
        #expect(notOK == (verdict == "ok" ? [] : ["roomSound duration warning"]), "\(checks)")
        #expect(report?["verdict"] as? String == verdict, "\(quality)")
        let summary = quality["summary"] as? [String: Any]
        #expect(summary?["verdict"] as? String == verdict, "\(quality)")
        #expect(summary?["problems"] as? [String] == problems, "\(quality)")
        return (verdict, problems)
    }

    /// Starts the daemon with its microphone in a room (`Room`): without a sound of its own the
    /// fixture's sink monitor hears only the one prompt, silent for about half of the recording,
    /// right on the silence check's warning threshold (0.5), so the verdict would be a coin
    /// toss. The timing bounds of the checks (prompt lateness, the audio's failing shortfall)
    /// widen under a sanitizer's slowdown (`TestTiming`); in a plain run they are the defaults.
    static func startInARoom(_ fixture: DaemonFixture) async throws -> (daemon: DaemonProcess, room: Room) {
        let room = try Room(fixture)
        let thresholds = [
            "promptLateWarningSeconds": TestTiming.tolerance(0.25), "promptLateFailedSeconds": TestTiming.tolerance(1.0),
            "audioDurationFailedSeconds": TestTiming.tolerance(2.0),
        ]
        let json = try JSONSerialization.data(withJSONObject: ["quality": thresholds], options: [.sortedKeys])
        let config = try fixture.write(task: String(decoding: json, as: UTF8.self), name: "config")
        return (try await fixture.start(fixture.arguments() + ["--config", config]), room)
    }

    /// A low hiss from `pacat` into the fixture's sink for the whole run: /dev/urandom at 30 %
    /// (about −36 dBFS, far above the silence level and, with the prompt, far from full scale).
    final class Room: Sendable {
        let pid: pid_t

        init(_ fixture: DaemonFixture) throws {
            pid = try ChildSpawn.spawn(
                ["/usr/bin/pacat", "--server=unix:\(fixture.directory.path)/pulse/pulse/native", "--device=null", "--playback", "--raw",
                 "--format=s16le", "--rate=16000", "--channels=1", "--volume=19660", "/dev/urandom"],
                environment: ProcessInfo.processInfo.environment, standardOutput: "/dev/null", standardError: "/dev/null")
        }

        deinit {
            kill(pid, SIGKILL)
            _ = ChildSpawn.waitForExit(pid)
        }
    }
}
