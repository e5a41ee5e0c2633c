import Foundation
import Glibc
import Testing
import TestSupport

/// The daemon stopped in the middle of a recording: SIGTERM saves the run as interrupted and
/// exits 0; SIGKILL leaves it to the next start, which repairs and keeps it (docs/service.md).
@Suite("activetaskd: stopped mid-recording")
struct ShutdownTests {
    /// Starts a long recording through `activetaskctl run --auto` and returns once motion is
    /// being recorded: the front end, the run's UUID and its directory.
    static func recording(_ fixture: DaemonFixture, name: String) async throws -> (frontEnd: DaemonProcess, uuid: String, directory: URL) {
        let file = try fixture.write(task: DaemonTasks.manualWalk(name, walking: 30), name: "walk")
        let watcher = try fixture.subscriber(to: ["motionProgress", "audioLevel"])
        let frontEnd = try fixture.spawn([CommandRunner.executable.path, "--socket", fixture.socket, "run", file, "--auto"])
        let status = try await offThread { () throws -> [String: Any] in
            _ = try watcher.waitForEvent("motionProgress", within: 20) { ($0["samplesWritten"] as? Int ?? 0) > 0 }
            // The microphone too has delivered audio (once, in a fresh clone's loaded pass, the
            // kill came before its first block and roomSound.wav was not a complete WAV).
            _ = try watcher.waitForEvent("audioLevel", within: 20)
            return try watcher.result("run.status")
        }
        let uuid = try #require(status["taskRunUUID"] as? String)
        let directory = URL(fileURLWithPath: try #require(status["runDirectory"] as? String))
        try await Task.sleep(for: .seconds(1))
        return (frontEnd, uuid, directory)
    }

    static func motionFile(in directory: URL) throws -> URL {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix("motion.json") })
        return directory.appendingPathComponent(name)
    }

    @Test("SIGTERM mid-recording: exit 0, the run finished as interrupted with its results and archive")
    func sigterm() async throws {
        let fixture = try await DaemonFixture("sigterm")
        let daemon = try await fixture.start()
        let (frontEnd, uuid, directory) = try await Self.recording(fixture, name: "Term")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(4000))")
        #expect(await frontEnd.waitForExit(within: 10) != nil, "the front end kept running after the daemon stopped")

        let manifest = try RunFiles.manifest(of: directory)
        #expect(manifest.status == "final" && manifest.finishReason == "interrupted", "\(manifest)")
        let result = try RunFiles.object(directory.appendingPathComponent("taskResult.json"))
        #expect(result["taskRunUUID"] as? String == uuid)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("\(uuid).zip").path))
        let motion = try RunFiles.Motion(try Self.motionFile(in: directory))
        #expect(motion.samples.count > 100 && motion.countFits(frequency: 100), "\(motion.samples.count) samples over \(motion.span) s")
        #expect(RunFiles.isCompleteWAV(directory.appendingPathComponent("roomSound.wav")))
    }

    @Test("SIGKILL mid-recording, then a restart on the same data directory recovers the run")
    func sigkillThenRestart() async throws {
        let fixture = try await DaemonFixture("sigkill")
        let daemon = try await fixture.start()
        let (frontEnd, uuid, directory) = try await Self.recording(fixture, name: "Kill")
        daemon.send(SIGKILL)
        #expect(await daemon.waitForExit(within: 5) == .signalled(SIGKILL))
        #expect(await frontEnd.waitForExit(within: 10) != nil, "the front end kept running after the daemon died")
        #expect(try RunFiles.manifest(of: directory).status == "running")

        let notify = try NotifySocket(path: fixture.directory.appendingPathComponent("notify.sock").path)
        let restarted = try fixture.spawn(environment: ["NOTIFY_SOCKET": notify.path])
        let socket = fixture.socket
        async let collected = onOwnThread { SystemdIntegrationTests.collect(notify, socket: socket, daemon: restarted) }
        try await fixture.waitUntilListening(restarted)
        let runs = try await fixture.ctl("runs")
        #expect(runs.standardOutput.contains("\(uuid)\tinterrupted"), "\(runs.standardOutput)\n\(restarted.output.suffix(4000))")
        let manifest = try RunFiles.manifest(of: directory)
        #expect(manifest.status == "final" && manifest.finishReason == "interrupted", "\(manifest)")
        let motion = try RunFiles.Motion(try Self.motionFile(in: directory))
        #expect(motion.samples.count > 50, "\(motion.samples.count) samples kept")
        #expect(RunFiles.isCompleteWAV(directory.appendingPathComponent("roomSound.wav")))
        _ = try RunFiles.object(directory.appendingPathComponent("taskResult.json"))
        _ = try RunFiles.object(directory.appendingPathComponent("metadata.json"))
        let archived = try await fixture.ctl("archive", uuid)
        #expect(archived.standardOutput == directory.appendingPathComponent("\(uuid).zip").path + "\n", "\(archived)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("\(uuid).zip").path))
        restarted.send(SIGTERM)
        #expect(await restarted.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(restarted.output.suffix(4000))")
        let lines = try await collected.flatMap(\.assignments)
        #expect(lines.first == "STATUS=recovering 1 interrupted run", "\(lines)")
        #expect(lines.contains("READY=1"), "\(lines)")
    }
    /// A SIGTERM while interrupted runs are being recovered (before the socket opens) is a
    /// graceful stop: exit 0, the run under way finished, the rest left interrupted and
    /// recovered at the next start. Before, recovery ran ahead of the service group and the
    /// signal killed the daemon (exit 143).
    @Test("SIGTERM during start-up recovery: exit 0, what was not recovered is recovered at the next start")
    func sigtermDuringRecovery() async throws {
        let fixture = try await DaemonFixture("recovery-stop")
        let daemon = try await fixture.start()
        let (frontEnd, uuid, directory) = try await Self.recording(fixture, name: "Many")
        daemon.send(SIGKILL)
        #expect(await daemon.waitForExit(within: 5) == .signalled(SIGKILL))
        _ = await frontEnd.waitForExit(within: 10)
        // Many interrupted runs, so that the stop comes with some not yet recovered: copies of
        // the killed run under new UUIDs.
        let runs = directory.deletingLastPathComponent()
        let manifest = try String(contentsOf: directory.appendingPathComponent("run.json"), encoding: .utf8)
        var copies: [URL] = [directory]
        for _ in 0..<30 {
            let copyUUID = UUID().uuidString
            let copy = runs.appendingPathComponent(copyUUID)
            try FileManager.default.copyItem(at: directory, to: copy)
            try manifest.replacingOccurrences(of: uuid, with: copyUUID)
                .write(to: copy.appendingPathComponent("run.json"), atomically: true, encoding: .utf8)
            copies.append(copy)
        }
        func running() throws -> Int { try copies.filter { try RunFiles.manifest(of: $0).status == "running" }.count }

        let notify = try NotifySocket(path: fixture.directory.appendingPathComponent("notify.sock").path)
        let restarted = try fixture.spawn(environment: ["NOTIFY_SOCKET": notify.path])
        let recovering = try await onOwnThread { () -> [String] in
            var seen: [String] = []
            while restarted.ended == nil, !seen.contains(where: { $0.hasPrefix("STATUS=recovering") }) {
                seen += notify.receive()?.assignments ?? []
            }
            return seen
        }
        #expect(recovering.contains("STATUS=recovering \(copies.count) interrupted runs"), "\(recovering)")
        restarted.send(SIGTERM)
        #expect(await restarted.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(restarted.output.suffix(4000))")
        let left = try running()
        print("recovery stopped with \(left) of \(copies.count) runs left interrupted")
        #expect(left > 0, "every run was recovered before the stop took effect: make recovery longer for the test to mean anything")
        // Each run is either recovered whole or left as it was.
        for copy in copies where try RunFiles.manifest(of: copy).status != "running" {
            #expect(try RunFiles.manifest(of: copy).finishReason == "interrupted")
            #expect(FileManager.default.fileExists(atPath: copy.appendingPathComponent("taskResult.json").path))
        }

        // The socket opens once every run left is recovered, and each takes its time: about
        // 0.3 s alone, 1-2 s with its quality check in a loaded parallel pass (25 runs left took
        // over 20 s there), more under a sanitizer (81 runs took over 20 s under ThreadSanitizer).
        let again = try fixture.spawn()
        try await fixture.waitUntilListening(again, within: (20 + 2 * Double(left)) * TestTiming.scale)
        #expect(try running() == 0, "the next start recovers the rest")
        again.send(SIGTERM)
        #expect(await again.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(again.output.suffix(4000))")
    }
}
