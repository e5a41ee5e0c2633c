import Foundation
import Testing
import TestSupport

/// `activetaskctl` as a front end of a control server (control-test-server over its canned
/// session; the daemon's own integration tests drive activetaskd the same way).
@Suite(.serialized) struct FrontEndCommandTests {
    static let task = """
        {"identifier": "Demo", "asyncActions": [{"identifier": "microphone", "type": "microphone"}],
         "steps": [
           {"identifier": "intro", "type": "instruction", "title": "Hello", "text": "Read this first."},
           {"identifier": "walk", "type": "active", "duration": 3, "spokenInstructions": {"start": "Start walking."}},
           {"identifier": "rest", "type": "active", "duration": 2, "transitionAutomatically": true},
           {"identifier": "done", "type": "completion", "title": "Done"}]}
        """

    /// A control-test-server on a scratch socket for the length of `body`.
    private func withServer<T>(tick: Double = 0.05, _ body: (String, ScratchDirectory) async throws -> T) async throws -> T {
        let server = try #require(PackagePaths.builtExecutable(named: "control-test-server"), "control-test-server was not built")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let socket = scratch.url.appendingPathComponent("control.sock").path
        // Spawned and reaped here, not with Foundation's Process (see CommandRunner).
        let output = scratch.url.appendingPathComponent("server.out")
        let pid = try ChildSpawn.spawn([server.path, "--socket", socket, "--data-dir", scratch.url.path, "--tick", "\(tick)"],
                                       environment: ProcessInfo.processInfo.environment, standardOutput: output.path,
                                       standardError: "/dev/null")
        defer {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        let ready = try await onOwnThread { () -> String in
            let deadline = Date().addingTimeInterval(20)
            var text = ""
            while Date() < deadline {
                text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                if text.contains("\n") { break }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return text
        }
        #expect(ready == "listening\n")
        return try await body(socket, scratch)
    }

    @Test func runAutoJSONEndsWithTheRunSummary() async throws {
        try await withServer { socket, scratch in
            let file = try scratch.write("task.json", Self.task)
            let run = try await CommandRunner.run(["--socket", socket, "run", file, "--auto", "--json"])
            #expect(run.status == 0, "\(run.standardError)")
            let last = try #require(run.standardOutput.split(separator: "\n").last)
            let summary = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
            #expect(Set(summary?.keys.map { $0 } ?? []) == ["taskRunUUID", "runDirectory", "archive", "status"])
            #expect(summary?["status"] as? String == "completed")
            let uuid = try #require(summary?["taskRunUUID"] as? String)
            #expect(run.standardError.contains("step Demo/walk (active)"))

            let runs = try await CommandRunner.run(["runs", "--socket", socket])
            #expect(runs.standardOutput.contains("\(uuid)\tcompleted\tDemo"))
            let archive = try await CommandRunner.run(["archive", uuid, "--socket", socket])
            #expect(archive.standardOutput == "\(summary?["archive"] as? String ?? "-")\n")
            let missing = try await CommandRunner.run(["result", "00000000-0000-0000-0000-000000000000", "--socket", socket])
            #expect(missing.status == 1)
            #expect(missing.standardError.contains("was not found"))
        }
    }

    @Test func aMissingDaemonIsOneSentence() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let result = try await CommandRunner.run(["status", "--socket", scratch.url.appendingPathComponent("none.sock").path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("Is the daemon running?"))
    }

    @Test func theInteractiveFrontEndInTmux() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            Issue.record("tmux is missing; ./scripts/setup.sh installs it.")
            return
        }
        try await withServer(tick: 1) { socket, scratch in
            // The walk lasts a minute here: the test pauses it, and a 3 s timer could end first
            // on a loaded machine (CI saw "timer.pause cannot be used" at 3 / 3 s).
            let file = try scratch.write("task.json", Self.task.replacingOccurrences(of: "\"duration\": 3,", with: "\"duration\": 60,"))
            let ctl = CommandRunner.executable.path
            let terminal = try await TerminalSession(command: "\(ctl) --socket \(socket) run \(file); sleep 30")
            defer { terminal.end() }
            func screen(containing texts: String...) async throws -> String {
                let (found, last) = try await terminal.screen(containingAll: texts, within: TestTiming.tolerance(10))
                if !found { Issue.record("The screen never showed \(texts):\n\(last)") }
                return last
            }
            _ = try await screen(containing: "May the task use the microphone?")
            try await terminal.send("y")
            // The whole step screen, not a capture taken while it is still being drawn.
            _ = try await screen(containing: "Read this first.", "Hello (1 of 4)", "enter next")
            try await terminal.send("Enter")
            let walking = try await screen(containing: "spoken: Start walking.")
            #expect(walking.contains("Demo/walk (2 of 4)"))
            _ = try await screen(containing: "motion: ")
            try await terminal.send("p")
            _ = try await screen(containing: "paused")
            try await terminal.send("q")
            // Both lines: the summary is printed line by line and a capture can fall between them.
            let saved = try await screen(containing: "saved", "run directory: ")
            #expect(saved.contains("run: ") && saved.contains(" saved"))
        }
    }
}
