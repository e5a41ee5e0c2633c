import Foundation
import Glibc
import Testing
import TestSupport

/// `activetaskctl run FILE` as a person uses it, in tmux, against the real daemon: its screen is
/// read as they would see it (TESTING.md, "A terminal front end").
@Suite("activetaskd: the interactive front end in tmux")
struct InteractiveFrontEndTests {
    static func tmux(_ arguments: String...) async throws -> String {
        let output = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/tmux"), arguments)
        return output.standardOutput
    }

    /// Polls the pane (at most 20 s) until it shows `text`.
    static func screen(_ session: String, containing text: String) async throws -> String {
        var last = ""
        for _ in 0..<200 {
            last = try await tmux("capture-pane", "-p", "-t", session)
            if last.contains(text) { return last }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("The screen never showed \(text):\n\(last)")
        return last
    }

    @Test("The screen shows the step's title and text; keys answer, move on, pause and save")
    func interactiveRun() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is missing; ./scripts/setup.sh installs it.")
        let fixture = try DaemonFixture("tmux")
        let daemon = try await fixture.start()
        let file = try fixture.write(task: DaemonTasks.manualWalk("Screen", walking: 20), name: "walk")
        let session = "atd-\(UUID().uuidString.prefix(8))"
        _ = try await Self.tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30",
                                "\(CommandRunner.executable.path) --socket \(fixture.socket) run \(file); sleep 30")
        defer { _ = try? Process.run(URL(fileURLWithPath: "/usr/bin/tmux"), arguments: ["kill-session", "-t", session]) }

        let shown = try await Self.screen(session, containing: "Read this first.")
        #expect(shown.contains("Hello walker (1 of 4)"), "\(shown)")
        #expect(shown.contains("enter next"), "\(shown)")
        _ = try await Self.tmux("send-keys", "-t", session, "Enter")
        // Entering the walk creates its recorders, and each asks its permission (y answers).
        var walking = ""
        for _ in 0..<200 {
            walking = try await Self.tmux("capture-pane", "-p", "-t", session)
            if walking.contains("motion: ") { break }
            if walking.contains("May the task use the") { _ = try await Self.tmux("send-keys", "-t", session, "y") }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(walking.contains("Walking (2 of 4)"), "\(walking)")
        _ = try await Self.screen(session, containing: "motion: ")
        _ = try await Self.tmux("send-keys", "-t", session, "p")
        _ = try await Self.screen(session, containing: "paused")
        _ = try await Self.tmux("send-keys", "-t", session, "q")
        let saved = try await Self.screen(session, containing: "run directory: ")
        #expect(saved.contains("saved"), "\(saved)")

        let runs = try await fixture.ctl("runs")
        #expect(runs.standardOutput.contains("\tsaved\tScreen"), "\(runs.standardOutput)\n\(daemon.output.suffix(3000))")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: 15) == .exited(0), "\(daemon.output.suffix(4000))")
    }
}
