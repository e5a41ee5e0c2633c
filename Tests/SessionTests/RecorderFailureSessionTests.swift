import AsyncActions
import Foundation
import Session
import TestSupport
import Testing

/// A recorder whose device goes away while it records (its PulseAudio server is killed): its
/// `<identifier>_error` result goes into its owner's async results and the task goes on, unless
/// the step says `shouldEndOnInterrupt` (docs/session.md, "Permissions" and failures). Serialized:
/// the tests share one server instance.
@Suite("A recorder failing mid-task", .serialized, .enabled(if: AudioTestEnvironment.hasPulse, "PulseAudio or the ALSA pulse plugin is not installed."))
struct RecorderFailureSessionTests {
    /// A task-level microphone and motion recorder over a 4 s active step; the step may end the
    /// task when a recorder fails.
    static func task(endsOnInterrupt: Bool) -> String {
        """
        {
            "identifier": "Failing",
            "type": "assessment",
            "asyncActions": [
                { "identifier": "roomSound", "type": "microphone", "stopStepIdentifier": "record" },
                { "identifier": "motion", "type": "motion", "frequency": 50, "stopStepIdentifier": "record" }
            ],
            "steps": [
                { "identifier": "record", "type": "active", "duration": \(Self.stepSeconds), "commands": ["transitionAutomatically"],
                  "shouldEndOnInterrupt": \(endsOnInterrupt) },
                { "identifier": "after", "type": "instruction", "title": "Still here" },
                { "identifier": "done", "type": "completion", "title": "Done" }
            ]
        }
        """
    }

    /// The recording step's length: 4 s, times `TestTiming.scale` under a sanitizer, where the
    /// front end may see the step seconds late and the server must still go while it records.
    static let stepSeconds = 4 * TestTiming.scale

    /// Runs the task with the microphone on a server of its own, killed 0.5 s after the step is
    /// seen (or, with `hangs`, stopped with SIGSTOP: its read blocks until the stop deadline).
    /// Early, because on a loaded machine the front end sees the step late, and the server must
    /// go while the 4 s step still records.
    func record(endsOnInterrupt: Bool, hangs: Bool = false) async throws -> (SessionHarness.Transcript, RunOnDisk) {
        let server = try await PulseServer.start(.sessionFailing, sharedMemory: false)
        defer { server.stop() }
        let name = (endsOnInterrupt ? "failing-ends" : "failing-goes-on") + (hangs ? "-hung" : "")
        let path = try SessionTasks.write(Self.task(endsOnInterrupt: endsOnInterrupt), name: "Failing", in: SessionTestEnvironment.scratch(name + "-task"))
        let harness = try await SessionHarness.make(
            taskPath: path, name: name, captureDevice: "test_session_failing_cap",
            stopDeadline: hangs ? .seconds(1) : SessionHarness.stopGuard)
        let transcript = try await harness.runAutomatically { _, shown in
            if shown.stepPath == "Failing/record" {
                try await Task.sleep(for: .seconds(0.5))
                if hangs { server.pause() } else { try await onOwnThread { server.crash() } }
            }
            return false
        }
        let finished = try #require(transcript.finished)
        return (transcript, RunOnDisk(url: finished.runDirectory))
    }

    func failures(_ transcript: SessionHarness.Transcript) -> [String] {
        transcript.events.compactMap { event in
            if case .actionFailed(let identifier, "Failing", _) = event.kind { return identifier }
            return nil
        }
    }

    @Test("the failure is recorded as roomSound_error and the task goes on; with shouldEndOnInterrupt the run fails")
    func recorderFailsMidTask() async throws {
        let stalled = StallWitness.shared.mark()
        let (goesOn, run) = try await record(endsOnInterrupt: false)
        #expect(goesOn.finished?.reason == .completed)
        #expect(failures(goesOn) == ["roomSound"])
        #expect(goesOn.steps == ["Failing/record", "Failing/after", "Failing/done"])
        let result = try run.object("taskResult.json")
        let error = try #require(RunOnDisk.result("roomSound_error", in: result["asyncResults"]))
        #expect(error["type"] as? String == "error")
        #expect((error["errorDescription"] as? String)?.isEmpty == false)
        // The failed recorder gives no file result; the motion recorder beside it is unaffected.
        #expect(RunOnDisk.result("roomSound", in: result["asyncResults"]) == nil)
        let motion = try #require(RunOnDisk.result("motion", in: result["asyncResults"]))
        #expect(motion["relativePath"] as? String == "motion.json")
        let recorded = try #require(RunOnDisk.seconds(of: motion))
        #expect(recorded > Self.stepSeconds - TestTiming.tolerance(0.3) && recorded < Self.stepSeconds + TestTiming.tolerance(0.3) + stalled.seconds,
                "motion recorded \(recorded) s; \(stalled.description)")
        try run.checkMotion("motion.json", markers: ["Failing/record"], sensors: ["accelerometer", "gyro"], duration: recorded, frequency: 50)
        let quality = try run.object("qc.json")
        let failure = (quality["checks"] as? [[String: Any]] ?? []).first { $0["identifier"] as? String == "roomSound_error" }
        #expect(failure?["verdict"] as? String == "failed")

        let (ends, failedRun) = try await record(endsOnInterrupt: true)
        #expect(ends.finished?.reason == .failed)
        #expect(failures(ends) == ["roomSound"])
        #expect(ends.steps == ["Failing/record"])
        let failedResult = try failedRun.object("taskResult.json")
        #expect(RunOnDisk.result("roomSound_error", in: failedResult["asyncResults"])?["type"] as? String == "error")
        // The motion recorder stopped with the run and kept its file.
        #expect(RunOnDisk.result("motion", in: failedResult["asyncResults"])?["type"] as? String == "file")
        #expect(try failedRun.object("run.json")["finishReason"] as? String == "failed")
    }

    @Test("a microphone that hangs fails at its stop deadline: the failure is announced and the motion recorder beside it stops with its step")
    func hungRecorderFailsAtStop() async throws {
        let stalled = StallWitness.shared.mark()
        let (transcript, run) = try await record(endsOnInterrupt: false, hangs: true)
        #expect(transcript.finished?.reason == .completed)
        // Found at the stop, not while recording, and still announced to the front end.
        #expect(failures(transcript) == ["roomSound"])
        #expect(transcript.steps == ["Failing/record", "Failing/after", "Failing/done"])
        let result = try run.object("taskResult.json")
        let error = try #require(RunOnDisk.result("roomSound_error", in: result["asyncResults"]))
        #expect(error["errorCode"] as? Int == AsyncActionError.Code.timedOut.rawValue, "\(error)")
        #expect(RunOnDisk.result("roomSound", in: result["asyncResults"]) == nil)
        // The actions stop all at once: motion ends with the 4 s step, not after the
        // microphone's deadline.
        let motion = try #require(RunOnDisk.result("motion", in: result["asyncResults"]))
        let recorded = try #require(RunOnDisk.seconds(of: motion))
        #expect(recorded > Self.stepSeconds - TestTiming.tolerance(0.3) && recorded < Self.stepSeconds + TestTiming.tolerance(0.3) + stalled.seconds,
                "motion recorded \(recorded) s; \(stalled.description)")
        try run.checkMotion("motion.json", markers: ["Failing/record"], sensors: ["accelerometer", "gyro"], duration: recorded, frequency: 50)
    }
}
