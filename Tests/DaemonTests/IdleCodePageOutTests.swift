import Foundation
import Glibc
import Testing
import TestSupport

/// The daemon pages its own code out while idle (docs/daemon.md, "Memory"): the real
/// `activetaskd`'s resident binary before, during and after a run.
@Suite("activetaskd: code paged out while idle",
       .enabled(if: TestTiming.scale == 1, "skipped under a sanitizer: an instrumented binary's resident pages are not what ships (none were found under ThreadSanitizer)"))
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

    /// Motion from the simulated IMU over a 3 s active step: no sound device, so the daemon can
    /// run as a user of its own.
    static let task = """
    {"identifier": "PageOut", "type": "motionTask",
     "asyncActions": [{"identifier": "motion", "type": "motion", "startStepIdentifier": "walking", "stopStepIdentifier": "walking",
                       "recorderTypes": ["accelerometer", "gyro"], "frequency": 100}],
     "steps": [{"identifier": "countdown", "type": "countdown", "duration": 1},
               {"identifier": "walking", "type": "active", "duration": 3, "commands": ["transitionAutomatically"]},
               {"identifier": "done", "type": "completion"}]}
    """

    @Test("Run as a user that does not own its binary (as the unit runs it), the idle daemon holds less than half the code it holds recording")
    func pagedOutWhenIdle() async throws {
        let fixture = try await DaemonFixture("pageout")
        // A copy of its own, owned by root: the kernel pages out only what no other process
        // maps (the other tests' daemons run the built binary at the same time), and the service
        // user may not write the binary it runs, which MADV_PAGEOUT alone would need.
        let home = fixture.directory.appendingPathComponent("nobody")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.ownerAccountID: 65534, .groupOwnerAccountID: 65534], ofItemAtPath: home.path)
        let binary = fixture.directory.appendingPathComponent("activetaskd")
        // Copied by cp, not in this process: a child another test forks here while the copy is
        // open for writing would hold it open, and exec would then fail with ETXTBSY.
        let copy = try await CommandRunner.run(URL(fileURLWithPath: "/bin/cp"), [DaemonFixture.executable, binary.path])
        try #require(copy.status == 0, "\(copy.standardError)")
        let socket = home.appendingPathComponent("control.sock").path
        let daemon = try fixture.spawn(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", binary.path,
                                        "--socket", socket, "--data-dir", home.appendingPathComponent("data").path,
                                        "--iio-uri", "sim:walking"])
        let listening = Date().addingTimeInterval(20)
        while !DaemonFixture.accepts(socket) {
            guard daemon.ended == nil, Date() < listening else { throw DaemonTestFailure("activetaskd did not listen:\n\(daemon.output)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        // Start-up is over in well under a second; the quiet period is 3 s.
        try await Task.sleep(for: .seconds(6))
        let idle = try Self.residentBinaryKB(daemon.pid)

        let file = try fixture.write(task: Self.task, name: "walk")
        let watcher = try LineClient(path: socket, timeout: 20)
        _ = try watcher.result("events.subscribe", ["kinds": ["motionProgress", "taskFinished"]])
        let frontEnd = try fixture.spawn([CommandRunner.executable.path, "--socket", socket, "run", file, "--auto"])
        _ = try await offThread { try watcher.waitForEvent("motionProgress", within: 30) { ($0["samplesWritten"] as? Int ?? 0) > 0 } }
        let recording = try Self.residentBinaryKB(daemon.pid)
        _ = try await offThread { try watcher.waitForEvent("taskFinished", within: 60) }
        #expect(await frontEnd.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(frontEnd.output.suffix(2000))")

        var after = try Self.residentBinaryKB(daemon.pid)
        let deadline = Date().addingTimeInterval(20)
        while after * 2 >= recording, Date() < deadline {
            try await Task.sleep(for: .milliseconds(250))
            after = try Self.residentBinaryKB(daemon.pid)
        }
        #expect(idle * 2 < recording, "idle \(idle) kB after start, \(recording) kB while recording")
        #expect(after * 2 < recording, "\(after) kB after the run, \(recording) kB while recording")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0))
    }
}
