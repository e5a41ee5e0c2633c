import Foundation
import Glibc
import Testing
import TestSupport

/// The daemon pages its own code out while idle (docs/daemon.md, "Memory"): the real
/// `activetaskd`'s resident binary before, during and after a run.
@Suite("activetaskd: code paged out while idle")
struct IdleCodePageOutTests {
    /// kB of the process's own binary resident in memory (`/proc/PID/smaps`).
    static func residentBinaryKB(_ pid: pid_t) throws -> Int {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        var mapped: String?
        var total = 0
        for line in try String(contentsOfFile: "/proc/\(pid)/smaps", encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 5, fields[0].contains("-"), fields[3].contains(":") {
                mapped = fields.count >= 6 ? fields[5...].joined(separator: " ") : nil
            } else if fields.first == "Rss:", mapped == executable, fields.count >= 2, let kB = Int(fields[1]) {
                total += kB
            }
        }
        return total
    }

    @Test("Idle after start and after a run, the daemon's binary is less than half as resident as during the run")
    func pagedOutWhenIdle() async throws {
        let fixture = try await DaemonFixture("pageout")
        // A copy of its own: the kernel pages out only what no other process maps, and the other
        // tests' daemons run the built binary at the same time.
        let binary = fixture.directory.appendingPathComponent("activetaskd")
        try FileManager.default.copyItem(atPath: DaemonFixture.executable, toPath: binary.path)
        let daemon = try await fixture.start([binary.path] + fixture.arguments().dropFirst())
        // Start-up is over in well under a second; the quiet period is 3 s.
        try await Task.sleep(for: .seconds(6))
        let idle = try Self.residentBinaryKB(daemon.pid)

        let file = try fixture.write(task: DaemonTasks.walk("PageOut", walking: 3), name: "walk")
        let watcher = try fixture.subscriber(to: ["motionProgress", "taskFinished"])
        let frontEnd = try fixture.spawn([CommandRunner.executable.path, "--socket", fixture.socket, "run", file, "--auto"])
        _ = try await offThread { try watcher.waitForEvent("motionProgress", within: 30) { ($0["samplesWritten"] as? Int ?? 0) > 0 } }
        let recording = try Self.residentBinaryKB(daemon.pid)
        _ = try await offThread { try watcher.waitForEvent("taskFinished", within: 60) }
        #expect(await frontEnd.waitForExit(within: 30) == .exited(0), "\(frontEnd.output.suffix(2000))")

        var after = try Self.residentBinaryKB(daemon.pid)
        let deadline = Date().addingTimeInterval(20)
        while after * 2 >= recording, Date() < deadline {
            try await Task.sleep(for: .milliseconds(250))
            after = try Self.residentBinaryKB(daemon.pid)
        }
        #expect(idle * 2 < recording, "idle \(idle) kB after start, \(recording) kB while recording")
        #expect(after * 2 < recording, "\(after) kB after the run, \(recording) kB while recording")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: 15) == .exited(0))
    }
}
