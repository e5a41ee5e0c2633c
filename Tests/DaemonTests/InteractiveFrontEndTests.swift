import Foundation
import Glibc
import Testing
import TestSupport

/// `activetaskctl run FILE` as a person uses it, in tmux, against the real daemon: its screen is
/// read as they would see it (TESTING.md, "A terminal front end").
@Suite("activetaskd: the interactive front end in tmux")
struct InteractiveFrontEndTests {
    /// Polls the pane (at most 20 s) until it shows `text`.
    static func screen(_ terminal: TerminalSession, containing text: String) async throws -> String {
        let (found, last) = try await terminal.screen(containing: text, within: 20)
        if !found { Issue.record("The screen never showed \(text):\n\(last)") }
        return last
    }

    @Test("The screen shows the step's title and text; keys answer, move on, pause and save")
    func interactiveRun() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is missing; ./scripts/setup.sh installs it.")
        let fixture = try await DaemonFixture("tmux")
        let daemon = try await fixture.start()
        let file = try fixture.write(task: DaemonTasks.manualWalk("Screen", walking: 20), name: "walk")
        let terminal = try await TerminalSession(command: "\(CommandRunner.executable.path) --socket \(fixture.socket) run \(file); sleep 30")
        defer { terminal.end() }

        let shown = try await Self.screen(terminal, containing: "Read this first.")
        #expect(shown.contains("Hello walker (1 of 4)"), "\(shown)")
        #expect(shown.contains("enter next"), "\(shown)")
        try await terminal.send("Enter")
        // Entering the walk creates its recorders, and each asks its permission (y answers).
        var walking = ""
        for _ in 0..<200 {
            walking = try await terminal.screen()
            if walking.contains("motion: ") { break }
            if walking.contains("May the task use the") { try await terminal.send("y") }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(walking.contains("Walking (2 of 4)"), "\(walking)")
        _ = try await Self.screen(terminal, containing: "motion: ")
        try await terminal.send("p")
        _ = try await Self.screen(terminal, containing: "paused")
        try await terminal.send("q")
        let saved = try await Self.screen(terminal, containing: "run directory: ")
        #expect(saved.contains("saved"), "\(saved)")

        let runs = try await fixture.ctl("runs")
        #expect(runs.standardOutput.contains("\tsaved\tScreen"), "\(runs.standardOutput)\n\(daemon.output.suffix(3000))")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(4000))")
    }

    @Test("A question's answer is typed: a wrong one shows the daemon's reason, a right one goes on")
    func typedAnswers() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is missing; ./scripts/setup.sh installs it.")
        let fixture = try await DaemonFixture("tmuxq")
        let daemon = try await fixture.start()
        let task = #"""
        {"identifier": "Typed", "steps": [
            {"identifier": "age", "type": "simpleQuestion", "title": "How many pets?", "optional": false,
             "inputItem": {"type": "integer", "formatOptions": {"minimumValue": 0, "maximumValue": 5}}},
            {"identifier": "colour", "type": "stringChoiceQuestion", "title": "Colour?", "choices": ["Red", "Blue"]},
            {"identifier": "done", "type": "completion", "title": "All done"}
        ]}
        """#
        let file = try fixture.write(task: task, name: "typed")
        let terminal = try await TerminalSession(command: "\(CommandRunner.executable.path) --socket \(fixture.socket) run \(file); sleep 30")
        defer { terminal.end() }

        _ = try await Self.screen(terminal, containing: "a to answer")
        try await terminal.send("a", "9", "Enter")
        let refused = try await Self.screen(terminal, containing: "! ")
        #expect(refused.contains("How many pets?"), "still on the question: \(refused)")
        try await terminal.send("a", "3", "Enter")
        let colour = try await Self.screen(terminal, containing: "2 Blue")
        #expect(colour.contains("Colour?"), "\(colour)")
        try await terminal.send("a", "2", "Enter")
        _ = try await Self.screen(terminal, containing: "All done")
        try await terminal.send("Enter")
        let finished = try await Self.screen(terminal, containing: "run directory: ")
        let directory = try #require(finished.split(separator: "\n").first { $0.contains("run directory: ") }?
            .components(separatedBy: "run directory: ").last?.trimmingCharacters(in: .whitespaces))
        let answers = try RunFiles.object(URL(fileURLWithPath: directory).appendingPathComponent("answers.json"))
        #expect(answers["age"] as? Int == 3, "\(answers)")
        #expect(answers["colour"] as? String == "Blue", "\(answers)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(4000))")
    }
}
