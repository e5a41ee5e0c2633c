import AsyncActions
import Foundation
import Session
import TaskModel
import TestSupport
import Testing
import ZIPFoundation

@Suite("Task session end to end with real recorders")
struct TaskSessionTests {
    @Test("a short walk records motion and audio into the run directory and archive")
    func shortWalk() async throws {
        let stalled = StallWitness.shared.mark()
        let scratch = SessionTestEnvironment.scratch("short-walk-task")
        let path = try SessionTasks.write(SessionTasks.shortWalk, name: "ShortWalk", in: scratch)
        let harness = try await SessionHarness.make(taskPath: path, name: "short-walk", speaks: true)
        let transcript = try await harness.runAutomatically()
        let finished = try #require(transcript.finished)
        #expect(finished.reason == .completed)
        #expect(transcript.steps == [
            "ShortWalk/overview", "ShortWalk/walk/instructions", "ShortWalk/walk/countdown",
            "ShortWalk/walk/walking", "ShortWalk/done",
        ])
        let directory = finished.runDirectory
        let files = try Set(FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(files.isSuperset(of: ["taskResult.json", "answers.json", "metadata.json", "run.json", "task.json", "walk_motion.json", "roomSound.wav", "roomSound_levels.json"]))

        // taskResult.json: the task, its section with the motion file, the task's microphone collection.
        let result = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("taskResult.json"))) as? [String: Any]
        #expect(result?["type"] as? String == "task")
        #expect(result?["identifier"] as? String == "ShortWalk")
        #expect(result?["endDate"] != nil)
        let history = result?["stepHistory"] as? [[String: Any]] ?? []
        #expect(history.map { $0["identifier"] as? String } == ["overview", "walk", "done"])
        let section = history.first { $0["identifier"] as? String == "walk" }
        #expect(section?["type"] as? String == "section")
        let sectionSteps = (section?["stepHistory"] as? [[String: Any]] ?? []).map { $0["identifier"] as? String }
        #expect(sectionSteps == ["instructions", "countdown", "walking"])
        let sectionAsync = section?["asyncResults"] as? [[String: Any]] ?? []
        #expect(sectionAsync.map { $0["identifier"] as? String } == ["motion"])
        #expect(sectionAsync.first?["relativePath"] as? String == "walk_motion.json")
        let taskAsync = result?["asyncResults"] as? [[String: Any]] ?? []
        #expect(taskAsync.first?["type"] as? String == "collection")
        #expect(taskAsync.first?["identifier"] as? String == "roomSound")
        let markersOfPath = (result?["path"] as? [[String: Any]] ?? []).map { $0["identifier"] as? String }
        #expect(markersOfPath == ["overview", "walk", "done"])

        // The motion file: markers at the step paths with seconds since the recorder started,
        // samples about 100 Hz over the countdown and the walk (2 s + 3 s).
        let motion = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("walk_motion.json"))) as? [[String: Any]] ?? []
        let markers = motion.filter { $0["sensorType"] == nil }
        #expect(markers.map { $0["stepPath"] as? String } == ["ShortWalk/walk/countdown", "ShortWalk/walk/walking"])
        #expect(markers.first?["timestamp"] as? Double == 0)
        let walkingMarker = try #require(markers.last?["timestamp"] as? Double)
        // The walk began 2 s (the countdown) after the countdown's timer started; the recorder
        // itself starts with that timer, a little later when the machine is busy. Late by no more
        // than the bound plus the time the machine itself stalled (StallWitness), never early.
        let countdownStarted = try #require(transcript.events.first { event in
            if case .timer(.started(let path, _)) = event.kind { return path == "ShortWalk/walk/countdown" }
            return false
        }?.uptime)
        let walkingUptime = try #require(markers.last?["uptime"] as? Double)
        let walkLate = walkingUptime - countdownStarted - 2
        #expect(walkLate > -0.3 && walkLate < TestTiming.tolerance(0.3) + stalled.seconds, "walk \(walkLate) s late; \(stalled.description)")
        let accelerometer = motion.filter { $0["sensorType"] as? String == "accelerometer" }
        let span = (accelerometer.last?["timestamp"] as? Double ?? 0) - (accelerometer.first?["timestamp"] as? Double ?? 0)
        #expect(abs(Double(accelerometer.count) - span * 100) <= TestTiming.tolerance(0.02) * span * 100 + 1)
        #expect(span > 5 - TestTiming.tolerance(0.5) && span < 5 + TestTiming.tolerance(0.8) + stalled.seconds, "span \(span) s; \(stalled.description)")
        // A sample's step path is the step shown at its own time.
        for sample in accelerometer {
            let time = sample["timestamp"] as? Double ?? 0
            let expected = time < walkingMarker ? "ShortWalk/walk/countdown" : "ShortWalk/walk/walking"
            #expect(sample["stepPath"] as? String == expected)
        }

        // metadata.json and the archive.
        let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("metadata.json"))) as? [String: Any]
        #expect(metadata?["taskIdentifier"] as? String == "ShortWalk")
        let metadataFiles = (metadata?["files"] as? [[String: Any]] ?? []).compactMap { $0["filename"] as? String }
        #expect(Set(metadataFiles).isSuperset(of: ["walk_motion.json", "roomSound.wav", "roomSound_levels.json", "taskResult.json"]))
        let archiveURL = try #require(finished.archive)
        let archive = try Archive(url: archiveURL, accessMode: .read)
        let entries = Set(archive.map(\.path))
        #expect(entries.isSuperset(of: ["taskResult.json", "answers.json", "metadata.json", "walk_motion.json", "roomSound.wav", "roomSound_levels.json"]))
        #expect(!entries.contains("run.json") && !entries.contains("task.json"))
        // prompts.json: the prompts with their schedule and when they were heard; timed ones on time.
        let prompts = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("prompts.json"))) as? [[String: Any]] ?? []
        let texts = prompts.compactMap { $0["text"] as? String }
        #expect(texts.contains("Get ready.") && texts.contains("Walk now.") && texts.contains("One more second.") && texts.contains("Stop walking."))
        let oneMore = try #require(prompts.first { $0["text"] as? String == "One more second." })
        let lateness = (oneMore["spokenUptime"] as? Double ?? 0) - (oneMore["scheduledUptime"] as? Double ?? 0)
        #expect(lateness > -0.1 && lateness < 0.1 + stalled.seconds, "\(lateness) s late; \(stalled.description)")
        #expect(transcript.events.contains { if case .command(_, "vibrateOnStart") = $0.kind { true } else { false } })
        let manifest = try RunDirectory(url: directory, taskRunUUID: harness.session.taskRunUUID).readManifest()
        #expect(manifest.status == .final && manifest.finishReason == .completed)
    }
}
