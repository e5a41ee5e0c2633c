import Foundation
import Glibc
import Testing
import TestSupport

/// A front end killed in the middle of a recording, and another connecting and finishing the
/// run: a disconnect never stops a recording (docs/protocol.md, "Transport").
@Suite("activetaskd: another front end takes over a run")
struct TakeOverTests {
    @Test("A client killed mid-task; another sees the step in run.status and goes forward to the end")
    func anotherClientFinishesTheRun() async throws {
        let fixture = try await DaemonFixture("takeover")
        let daemon = try await fixture.start()
        let file = try fixture.write(task: DaemonTasks.manualWalk("TakeOver", walking: 10), name: "walk")
        let watcher = try fixture.subscriber(to: ["stepShown"])

        let first = try fixture.spawn([CommandRunner.executable.path, "--socket", fixture.socket, "run", file, "--auto"])
        _ = try await offThread {
            try watcher.waitForEvent("stepShown", within: 20) { $0["stepPath"] as? String == "TakeOver/walking" }
        }
        try await Task.sleep(for: .milliseconds(500))
        first.send(SIGKILL)
        #expect(await first.waitForExit(within: DaemonProcess.exitBound) == .signalled(SIGKILL))

        let status = try await offThread { try LineClient(path: fixture.socket).result("run.status") }
        #expect(status["state"] as? String == "running", "\(status)")
        #expect((status["step"] as? [String: Any])?["stepPath"] as? String == "TakeOver/walking", "\(status)")
        let uuid = try #require(status["taskRunUUID"] as? String)

        let second = try await fixture.ctl("run", "--attach", "--auto", "--json")
        #expect(second.status == 0, "\(second.standardError)\n\(daemon.output.suffix(4000))")
        let summary = try RunFiles.lastLine(of: second.standardOutput)
        #expect(summary["taskRunUUID"] as? String == uuid)
        #expect(summary["status"] as? String == "completed")
        let directory = URL(fileURLWithPath: try #require(summary["runDirectory"] as? String))
        let result = try RunFiles.object(directory.appendingPathComponent("taskResult.json"))
        #expect((result["path"] as? [[String: Any]] ?? []).map { $0["identifier"] as? String } == ["intro", "walking", "rest", "done"])
        let motionName = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix("motion.json") })
        let motion = try RunFiles.Motion(directory.appendingPathComponent(motionName))
        #expect(motion.countFits(frequency: 100), "\(motion.samples.count) samples over \(motion.span) s")
        #expect(motion.covers(seconds: 10), "span \(motion.span) s")
        #expect(motion.longestGap < 0.05, "longest gap \(motion.longestGap) s")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(4000))")
    }
}

extension TakeOverTests {
    @Test("A front end that reconnects while two permission questions are open gets each in turn from run.status")
    func reconnectingFrontEndSeesEveryOpenQuestion() async throws {
        let fixture = try await DaemonFixture("questions")
        let daemon = try await fixture.start()
        let taskJSON = DaemonTasks.manualWalk("Asked", walking: 2)
        let socket = fixture.socket
        let answered = try await offThread { () throws -> [Int] in
            let first = try LineClient(path: socket)
            let task = try JSONSerialization.jsonObject(with: Data(taskJSON.utf8))
            _ = try first.result("task.load", ["task": task])
            _ = try first.result("run.start")
            // Entering the walk creates the motion and microphone recorders: two questions at once.
            let forward = try first.result("run.forward", ["stepPath": "Asked/intro"])
            guard forward["state"] as? String == "waitingForPermission" else { throw DaemonTestFailure("not asking: \(forward)") }
            let second = try LineClient(path: socket)
            var answered: [Int] = []
            for _ in 0..<4 {
                let status = try second.result("run.status")
                guard let request = status["permissionRequest"] as? [String: Any], let id = request["requestID"] as? Int else { break }
                answered.append(id)
                _ = try second.result("permission.answer", ["requestID": id, "granted": true])
            }
            let status = try second.result("run.status")
            guard status["state"] as? String == "running" else { throw DaemonTestFailure("still \(status)") }
            return answered
        }
        #expect(answered == [1, 2])
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(4000))")
    }
}
