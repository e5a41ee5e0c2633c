import Foundation
import Glibc
import Testing
import TestSupport

/// `daemon.info` and `run.status` are answered from the state the daemon publishes after every
/// change, without waiting for its actor (docs/daemon.md, "Reads without waiting"): another
/// client asking right after a command was answered must see what that answer said.
@Suite("activetaskd: run.status and daemon.info read the published state")
struct PublishedStatusTests {
    @Test("After each command of a whole run and each step shown, another client's run.status and daemon.info agree")
    func statusFollowsEveryCommand() async throws {
        let fixture = try await DaemonFixture("published")
        let daemon = try await fixture.start()
        let taskJSON = DaemonTasks.manualWalk("Published", walking: 1)
        let socket = fixture.socket
        let seen = try await offThread { () throws -> [String] in
            let driver = try LineClient(path: socket)
            let observer = try LineClient(path: socket)
            _ = try driver.result("events.subscribe", ["kinds": ["stepShown", "timerFinished", "taskFinished"]])
            var states: [String] = []
            /// What the command decided (the session's state and run) must show at once to
            /// another client, and daemon.info must name the same state.
            func check(_ answer: [String: Any], after command: String) throws {
                let status = try observer.result("run.status")
                for key in ["state", "taskIdentifier", "taskRunUUID", "runDirectory", "finishReason"] {
                    guard Self.text(status[key]) == Self.text(answer[key]) else {
                        throw DaemonTestFailure("after \(command): run.status has \(key) \(Self.text(status[key])), the answer \(Self.text(answer[key]))")
                    }
                }
                let info = try observer.result("daemon.info")
                guard info["session"] as? String == status["state"] as? String else {
                    throw DaemonTestFailure("after \(command): daemon.info says \(info["session"] ?? "nothing"), run.status \(status)")
                }
                states.append(status["state"] as? String ?? "?")
            }
            /// A step the driver was told about is the step another client's run.status shows.
            func checkShown(_ path: String) throws {
                let event = try driver.waitForEvent("stepShown", within: 15) { $0["stepPath"] as? String == path }
                let status = try observer.result("run.status")
                let step = status["step"] as? [String: Any]
                // The event's envelope (kind, sequence, uptime and the run it belongs to) is not the step's.
                guard step?["stepPath"] as? String == path, event["taskRunUUID"] as? String == status["taskRunUUID"] as? String,
                      Self.text(step) == Self.text(event.filter { !["kind", "sequence", "uptime", "taskRunUUID"].contains($0.key) }) else {
                    throw DaemonTestFailure("stepShown \(path), but run.status shows \(status)")
                }
            }
            guard try observer.result("run.status")["state"] as? String == "idle" else { throw DaemonTestFailure("not idle at start") }
            _ = try driver.result("task.load", ["task": try JSONSerialization.jsonObject(with: Data(taskJSON.utf8))])
            let loaded = try observer.result("run.status")
            guard loaded["state"] as? String == "loaded", loaded["taskIdentifier"] as? String == "Published",
                  try observer.result("daemon.info")["session"] as? String == "loaded" else {
                throw DaemonTestFailure("after task.load: \(loaded)")
            }
            try check(try driver.result("run.start"), after: "run.start")
            try checkShown("Published/intro")
            try check(try driver.result("run.forward", ["stepPath": "Published/intro"]), after: "run.forward from intro")
            for _ in 0..<4 {
                guard let request = try observer.result("run.status")["permissionRequest"] as? [String: Any],
                      let id = request["requestID"] as? Int else { break }
                try check(try driver.result("permission.answer", ["requestID": id, "granted": true]), after: "permission.answer \(id)")
            }
            try checkShown("Published/walking")
            _ = try driver.waitForEvent("timerFinished", within: 15)
            try check(try driver.result("run.forward", ["stepPath": "Published/walking"]), after: "run.forward from walking")
            try checkShown("Published/rest")
            try check(try driver.result("run.forward", ["stepPath": "Published/rest"]), after: "run.forward from rest")
            try checkShown("Published/done")
            try check(try driver.result("run.forward", ["stepPath": "Published/done"]), after: "run.forward from done")
            // The archive shows once the taskFinished event is out.
            let event = try driver.waitForEvent("taskFinished", within: 30)
            let finished = try observer.result("run.status")
            guard finished["state"] as? String == "finished", finished["finishReason"] as? String == "completed",
                  finished["archive"] as? String == event["archive"] as? String, finished["archive"] != nil else {
                throw DaemonTestFailure("after the run: \(finished), taskFinished \(event)")
            }
            return states
        }
        #expect(seen.first == "running")
        #expect(seen.contains("waitingForPermission"))
        #expect(seen.last == "finished")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(4000))")
    }

    /// A JSON value as text with sorted keys, for comparing.
    static func text(_ value: Any?) -> String {
        guard let value else { return "absent" }
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) else { return "\(value)" }
        return String(decoding: data, as: UTF8.self)
    }
}
