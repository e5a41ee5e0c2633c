import Foundation
import Glibc
import Testing
import TestSupport

/// SIGUSR2 restarts the daemon into a newly installed version without cutting a recording
/// (docs/install.md, "Upgrades"): idle, it exits at once with status 75 (which the unit has
/// systemd restart); with a run under way, no other run starts, the run goes on to its end and
/// is written whole, and then the daemon exits with 75 by itself.
@Suite("activetaskd: a restart into a new version waits for the run under way")
struct RestartWhenIdleTests {
    static let twoSteps = """
    {
        "identifier": "Upgrade",
        "steps": [
            { "identifier": "hello", "type": "instruction", "title": "Hello" },
            { "identifier": "done", "type": "completion", "title": "Done" }
        ]
    }
    """

    static func task() throws -> Any { try JSONSerialization.jsonObject(with: Data(twoSteps.utf8)) }

    @Test("Idle, SIGUSR2 stops the daemon with status 75")
    func idle() async throws {
        let fixture = try await DaemonFixture("restart-idle")
        let daemon = try await fixture.start()
        defer { daemon.send(SIGKILL) }
        daemon.send(SIGUSR2)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(75), "\(daemon.output.suffix(3000))")
    }

    @Test("A run under way records to its end, no other run starts, then the daemon exits with 75")
    func runUnderWay() async throws {
        let fixture = try await DaemonFixture("restart-run")
        let daemon = try await fixture.start()
        defer { daemon.send(SIGKILL) }
        let socket = fixture.socket
        let run = try await offThread { () throws -> String in
            let client = try LineClient(path: socket, timeout: 20)
            _ = try client.result("events.subscribe", ["kinds": ["stepShown"]])
            _ = try client.result("task.load", ["task": try Self.task()])
            let started = try client.result("run.start")
            _ = try client.waitForEvent("stepShown")
            return try #require(started["taskRunUUID"] as? String)
        }

        daemon.send(SIGUSR2)
        let deadline = Date().addingTimeInterval(20 * TestTiming.scale)
        while !daemon.output.contains("Asked to restart into the installed version"), Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(daemon.output.contains("Asked to restart into the installed version"), "\(daemon.output.suffix(3000))")
        let status = try await offThread { try LineClient(path: socket, timeout: 20).result("run.status") }
        #expect(status["state"] as? String == "running", "the run goes on: \(status)")

        // The run goes on: forward to its end. The command that ends it may see the connection
        // close instead of its answer or the taskFinished event, since the daemon stops as soon
        // as the run has ended (it did once under AddressSanitizer); what the run must be is
        // read from what the daemon wrote, below.
        let ended = try await offThread { () throws -> String in
            let client = try LineClient(path: socket, timeout: 20)
            _ = try client.result("events.subscribe", ["kinds": ["stepShown", "taskFinished"]])
            _ = try client.result("run.forward", ["taskRunUUID": run])
            _ = try client.waitForEvent("stepShown")
            guard (try? client.call("run.forward", ["taskRunUUID": run])) != nil,
                  let finished = try? client.waitForEvent("taskFinished") else { return "connection closed" }
            return finished["reason"] as? String ?? "\(finished)"
        }
        #expect(ended == "completed" || ended == "connection closed", "\(ended)")
        // No run starts after it: the daemon refuses with shuttingDown, or has closed its socket.
        let next = try await offThread { () -> String in
            guard let client = try? LineClient(path: socket, timeout: 20) else { return "socket closed" }
            guard (try? client.call("task.load", ["task": try Self.task()])) != nil, let answer = try? client.call("run.start") else { return "connection closed" }
            if let error = answer["error"] as? [String: Any] { return "refused \(error["code"] ?? "") \(error["message"] ?? "")" }
            return "started: \(answer)"
        }
        #expect(!next.hasPrefix("started"), "\(next)")
        #expect(next == "socket closed" || next == "connection closed" || next.hasPrefix("refused -32007 The daemon is restarting"), "\(next)")
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(75), "\(daemon.output.suffix(3000))")
        let runs = try FileManager.default.contentsOfDirectory(atPath: fixture.dataDirectory.appendingPathComponent("runs").path)
        #expect(runs.filter { !$0.hasPrefix(".") } == [run], "only the run under way was recorded: \(runs)")
        let directory = fixture.dataDirectory.appendingPathComponent("runs/\(run)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("taskResult.json").path))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("\(run).zip").path))
        let manifest = try RunFiles.manifest(of: directory)
        #expect(manifest.status == "final" && manifest.finishReason == "completed", "the run ended as it would have: \(manifest)")
    }
}
