import Foundation
import Glibc
import Testing
import TestSupport

/// A daemon built with `ActiveTaskDaemon.run(registry:)` and a custom task type
/// (Tests/CustomTaskDaemon, docs/custom-tasks.md), over its socket: the type's `value` is
/// decoded, its navigator decides forward, back and progress, and a bad value is refused.
@Suite("activetaskd built by an embedder: custom task types")
struct CustomTaskDaemonTests {
    static func task(value: String, type: String = "thresholdTask") -> [String: Any] {
        let json = #"""
        {"identifier": "Custom", "type": "\#(type)", "value": \#(value), "progressMarkers": ["a", "b", "c"], "steps": [
            {"identifier": "a", "type": "instruction"},
            {"identifier": "b", "type": "instruction"},
            {"identifier": "c", "type": "instruction"},
            {"identifier": "end", "type": "completion"}
        ]}
        """#
        return (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:]
    }

    /// The step path and progress ("current/total", `~` when estimated) a status shows.
    static func shown(_ status: [String: Any]) -> String {
        let step = status["step"] as? [String: Any]
        let progress = step?["progress"] as? [String: Any]
        let text = progress.map { "\($0["current"] ?? "?")/\($0["total"] ?? "?")\($0["isEstimated"] as? Bool == true ? "~" : "")" }
        return "\(step?["stepPath"] as? String ?? "none") \(text ?? "-")"
    }

    @Test("Options are activetaskd's: --help prints them, an unknown one is refused")
    func options() async throws {
        let fixture = try await DaemonFixture("customhelp")
        let executable = PackagePaths.builtExecutable(named: "custom-task-daemon")?.path ?? "custom-task-daemon-not-built"
        let help = try fixture.spawn([executable, "--help"])
        #expect(await help.waitForExit(within: DaemonProcess.exitBound) == .exited(0))
        #expect(help.output.contains("USAGE: activetaskd [--config <config>]") && help.output.contains("--sync-interval"), "\(help.output)")
        let unknown = try fixture.spawn([executable, "--bogus"])
        #expect(await unknown.waitForExit(within: DaemonProcess.exitBound) == .exited(64))
        #expect(unknown.output.contains("Unknown option '--bogus'"), "\(unknown.output)")
    }

    @Test("The custom navigator drives runs, also under a configured alias; a bad value is refused with its coding path")
    func customTaskOverTheSocket() async throws {
        let fixture = try await DaemonFixture("custom")
        let executable = PackagePaths.builtExecutable(named: "custom-task-daemon")?.path ?? "custom-task-daemon-not-built"
        // The configuration may alias the embedder's type like a built-in one.
        let config = try fixture.write(task: #"{"typeAliases": {"legacyThreshold": "thresholdTask"}}"#, name: "config")
        let daemon = try await fixture.start([executable] + fixture.arguments().dropFirst() + ["--config", config])
        let socket = fixture.socket
        let (runs, refusal) = try await offThread { () throws -> ([[String]], [String: Any]) in
            let client = try LineClient(path: socket, timeout: 20)
            _ = try client.result("events.subscribe", ["kinds": ["taskFinished"]])
            var runs: [[String]] = []
            for (value, type) in [("1", "thresholdTask"), ("5", "legacyThreshold")] {
                var shown: [String] = []
                _ = try client.result("task.load", ["task": Self.task(value: value, type: type)])
                shown.append(Self.shown(try client.result("run.start")))
                shown.append(Self.shown(try client.result("run.forward")))
                shown.append(Self.shown(try client.result("run.back")))
                while shown.count < 10, !shown[shown.count - 1].hasPrefix("Custom/end ") {
                    shown.append(Self.shown(try client.result("run.forward")))
                }
                _ = try client.result("run.forward")
                _ = try client.waitForEvent("taskFinished", within: 30)
                runs.append(shown)
            }
            let refusal = try client.call("task.load", ["task": Self.task(value: "-2")])
            return (runs, refusal)
        }
        #expect(runs == [
            ["Custom/a 1/4~", "Custom/b 2/4~", "Custom/a 1/4~", "Custom/b 2/4~", "Custom/c 3/4~", "Custom/end 4/4~"],
            ["Custom/a 1/4~", "Custom/c 2/4~", "Custom/a 1/4~", "Custom/c 2/4~", "Custom/end 3/4~"],
        ])
        let error = refusal["error"] as? [String: Any]
        let message = error?["message"] as? String ?? ""
        #expect(message.contains("value") && message.contains("give 0 or more"), "\(refusal)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0))
    }
}
