import Foundation
import Glibc
import Testing
import TestSupport

/// `activetaskd.prom` from the real daemon (docs/fleet.md): a run with a spoken prompt and a
/// microphone is counted with its prompt's lateness; a run cut by kill -9 is counted at the next
/// start as recovered and interrupted, and what was counted before the crash is kept; the
/// retention pass that follows is counted.
@Suite("activetaskd: the metrics file")
struct MetricsFileTests {
    static let promtool = "/usr/bin/promtool"

    /// The file's text once it holds every one of `lines` (it is rewritten after each run, off
    /// the run's own path), or what it holds after 30 s.
    static func waitForLines(_ lines: [String], in fixture: DaemonFixture) async throws -> String {
        let file = fixture.metricsDirectory.appendingPathComponent("activetaskd.prom")
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            if lines.allSatisfy({ text.contains($0 + "\n") }) || ContinuousClock.now >= deadline { return text }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    @Test("A run with a prompt, then kill -9 mid-recording and a restart: every run counted once, the prompt's lateness, the recovery; promtool accepts the file")
    func runThenCrash() async throws {
        let fixture = try await DaemonFixture("metrics")
        try FileManager.default.createDirectory(at: fixture.metricsDirectory, withIntermediateDirectories: true)
        // One run kept whole: at the restart retention trims the older run to its archive.
        let retention = ["ACTIVETASK_RETENTION_MAX_RUNS": "1"]
        let daemon = try await fixture.start(environment: retention)
        // Written at readiness, before any run.
        let ready = try await Self.waitForLines(["activetask_ready 1", "activetask_runs_recovered_total 0"], in: fixture)
        #expect(ready.contains("activetask_ready 1\n"), "\(ready)")

        let file = try fixture.write(task: DaemonTasks.walk(walking: 1), name: "walk")
        let run = try await fixture.ctl("run", file, "--auto", "--json")
        #expect(run.status == 0, "\(run.standardError)\n\(daemon.output.suffix(4000))")
        let walked = try await Self.waitForLines([
            #"activetask_runs_total{task="DaemonWalk",finish_reason="completed"} 1"#,
            // "Walk now." was spoken once: one observation of its lateness.
            "activetask_prompt_lateness_seconds_count 1",
        ], in: fixture)
        #expect(walked.contains("activetask_prompt_lateness_seconds_count 1\n"), "\(walked)")
        #expect(walked.contains(#"activetask_microphone_xruns_total{recorder="roomSound"} "#), "\(walked)")
        #expect(walked.contains(#"activetask_sensor_nominal_hertz{recorder="motion",sensor="accelerometer"} 100"#), "\(walked)")
        if FileManager.default.isExecutableFile(atPath: Self.promtool) {
            let path = fixture.metricsDirectory.appendingPathComponent("activetaskd.prom").path
            let lint = try await CommandRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" check metrics < \"$1\"", Self.promtool, path])
            #expect(lint.status == 0, "\(lint.standardOutput)\(lint.standardError)\n\(walked)")
        }

        // kill -9 in the middle of a recording; the next start recovers the run.
        let (frontEnd, _, _) = try await ShutdownTests.recording(fixture, name: "Kill")
        daemon.send(SIGKILL)
        #expect(await daemon.waitForExit(within: 5) == .signalled(SIGKILL))
        _ = await frontEnd.waitForExit(within: 10)
        try FileManager.default.removeItem(at: fixture.metricsDirectory.appendingPathComponent("activetaskd.prom"))
        let restarted = try await fixture.start(environment: retention)
        let recovered = try await Self.waitForLines([
            "activetask_runs_recovered_total 1",
            #"activetask_runs_total{task="Kill",finish_reason="interrupted"} 1"#,
            #"activetask_runs_total{task="DaemonWalk",finish_reason="completed"} 1"#,
            "activetask_prompt_lateness_seconds_count 1",
            "activetask_retention_trimmed_runs_total 1",
        ], in: fixture)
        #expect(recovered.contains("activetask_retention_trimmed_runs_total 1\n"), "\(recovered)")
        #expect(recovered.contains("activetask_runs_recovered_total 1\n"), "\(recovered)\n\(restarted.output.suffix(4000))")
        #expect(recovered.contains(#"activetask_runs_total{task="Kill",finish_reason="interrupted"} 1"#), "\(recovered)")
        #expect(recovered.contains(#"activetask_runs_total{task="DaemonWalk",finish_reason="completed"} 1"#), "\(recovered)")
        restarted.send(SIGTERM)
        #expect(await restarted.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(restarted.output.suffix(4000))")
    }
}
