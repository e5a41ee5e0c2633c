import Foundation
import Glibc
import Testing
import TestSupport

/// The daemon under a NOTIFY_SOCKET the test owns, with a watchdog, and started by
/// `systemd-socket-activate` (docs/service.md).
@Suite("activetaskd: systemd readiness, status, watchdog and socket activation")
struct SystemdIntegrationTests {
    /// A message seen on the notify socket, with whether the control socket accepted a
    /// connection right when READY=1 arrived.
    struct Seen: Sendable {
        var time: Double
        var assignments: [String]
        var acceptedAtReady: Bool?
    }

    /// Receives notify messages until the daemon has ended; on READY=1 it tries the socket at once.
    static func collect(_ notify: NotifySocket, socket: String, daemon: DaemonProcess) -> [Seen] {
        var seen: [Seen] = []
        while true {
            if let message = notify.receive() {
                let ready = message.assignments.contains("READY=1")
                seen.append(Seen(time: message.time, assignments: message.assignments, acceptedAtReady: ready ? DaemonFixture.accepts(socket) : nil))
            } else if daemon.ended != nil {
                return seen
            }
        }
    }

    @Test("READY after the socket listens; STATUS recovering, recording TASK step PATH, idle; WATCHDOG pings; STOPPING on SIGTERM")
    func notifications() async throws {
        let fixture = try await DaemonFixture("notify")
        let notify = try NotifySocket(path: fixture.directory.appendingPathComponent("notify.sock").path)
        let daemon = try fixture.spawnWatched(notify: notify, watchdogSeconds: 1)
        let socket = fixture.socket
        async let collected = onOwnThread { Self.collect(notify, socket: socket, daemon: daemon) }
        try await fixture.waitUntilListening(daemon)
        let file = try fixture.write(task: DaemonTasks.walk("Notified", walking: 1), name: "walk")
        let run = try await fixture.ctl("run", file, "--auto", "--json")
        #expect(run.status == 0, "\(run.standardError)")
        try await Task.sleep(for: .milliseconds(1500))
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(4000))")
        let seen = try await collected

        let lines = seen.flatMap(\.assignments)
        let states = lines.filter { !$0.hasPrefix("WATCHDOG=") }
        func index(_ predicate: (String) -> Bool) -> Int? { states.firstIndex(where: predicate) }
        let recovering = try #require(index { $0.hasPrefix("STATUS=recovering ") }, "\(states)")
        let ready = try #require(index { $0 == "READY=1" }, "\(states)")
        let recording = try #require(index { $0 == "STATUS=recording Notified step Notified/walk/walking" }, "\(states)")
        let idle = try #require(states.indices.last { states[$0] == "STATUS=idle" }, "\(states)")
        let stopping = try #require(index { $0 == "STOPPING=1" }, "\(states)")
        #expect(recovering < ready && ready < recording && recording < idle && idle < stopping, "\(states)")
        #expect(states.contains("STATUS=recording Notified step Notified/overview"), "\(states)")
        #expect(seen.first { $0.acceptedAtReady != nil }?.acceptedAtReady == true, "READY=1 came before the socket accepted connections")
        #expect(lines.filter { $0 == "WATCHDOG=1" }.count >= 4, "\(lines)")
    }

    @Test("A recorder thread stuck in a read (its sound server frozen) stops the watchdog pings; they resume when it moves again")
    func stuckRecorderStopsThePings() async throws {
        let fixture = try await DaemonFixture("watchdog")
        let notify = try NotifySocket(path: fixture.directory.appendingPathComponent("notify.sock").path)
        let daemon = try fixture.spawnWatched(notify: notify, watchdogSeconds: 2)
        let socket = fixture.socket
        async let collected = onOwnThread { Self.collect(notify, socket: socket, daemon: daemon) }
        try await fixture.waitUntilListening(daemon)
        let file = try fixture.write(task: DaemonTasks.manualWalk("Stuck", walking: 60), name: "walk")
        let watcher = try fixture.subscriber(to: ["audioLevel"])
        let frontEnd = try fixture.spawn([CommandRunner.executable.path, "--socket", socket, "run", file, "--auto"])
        _ = try await offThread { try watcher.waitForEvent("audioLevel", within: 20) }

        let frozen = NotifySocket.now()
        fixture.freezeSound()
        try await Task.sleep(for: .seconds(15))
        let thawed = NotifySocket.now()
        fixture.thawSound()
        try await Task.sleep(for: .seconds(4))
        frontEnd.send(SIGKILL)
        daemon.send(SIGKILL)
        _ = await daemon.waitForExit(within: 5)
        let pings = try await collected.filter { $0.assignments.contains("WATCHDOG=1") }.map(\.time)
        #expect(pings.contains { $0 < frozen }, "no pings before the freeze")
        // The heartbeat counts as stalled after 10 s; pings come every 1 s: none from 12 s on.
        #expect(!pings.contains { $0 > frozen + 12 && $0 < thawed }, "pings went on while the capture thread was stuck: \(pings.map { $0 - frozen })")
        #expect(pings.contains { $0 > thawed }, "pings did not resume after the thread moved again: \(pings.map { $0 - frozen })\n\(daemon.output.suffix(3000))")
    }

    @Test("systemd-socket-activate passes the listening socket and the daemon serves a client on it")
    func socketActivation() async throws {
        let tool = try #require(
            ["/usr/bin/systemd-socket-activate", "/bin/systemd-socket-activate"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "systemd-socket-activate is part of the systemd package (scripts/setup.sh)")
        let fixture = try await DaemonFixture("activate")
        let activated = fixture.directory.appendingPathComponent("activated.sock").path
        // The daemon's own --socket points elsewhere: only the passed socket can answer.
        // systemd-socket-activate gives the daemon an environment of its own (LISTEN_*, PATH,
        // HOME, TERM): the sanitizers' settings are passed on by name, or a daemon built with
        // AddressSanitizer ran without the suppressions of scripts/sanitizers/lsan.supp and
        // failed its exit on the side table of a `[weak self]` still alive (docs/testing.md).
        let sanitizerSettings = ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "SWIFT_BACKTRACE"]
            .filter { ProcessInfo.processInfo.environment[$0] != nil }.flatMap { ["-E", $0] }
        let daemon = try fixture.spawn([tool, "-l", activated] + sanitizerSettings + fixture.arguments())
        var info: [String: Any] = [:]
        for _ in 0..<200 where info.isEmpty {
            if let answer = try? await offThread({ try LineClient(path: activated, timeout: 15).result("daemon.info") }) {
                info = answer
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        #expect(info["name"] as? String == "activetaskd", "\(daemon.output.suffix(4000))")
        #expect(info["pid"] as? Int == Int(daemon.pid), "systemd-socket-activate execs the daemon in its own process")
        #expect(!FileManager.default.fileExists(atPath: fixture.socket), "the daemon bound its own socket as well")
        let status = try await CommandRunner.run(["status", "--socket", activated])
        #expect(status.status == 0, "\(status.standardError)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit(within: DaemonProcess.exitBound) == .exited(0), "\(daemon.output.suffix(4000))")
    }
}
