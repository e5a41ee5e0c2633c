import Foundation
import Synchronization
import Testing
import TestSupport

/// The notifier and the watchdog in a real child process, against a NOTIFY_SOCKET the test owns.
@Suite("systemd notifications")
struct NotifierTests {
    /// Runs the helper with NOTIFY_SOCKET pointing at a socket of the test's, collecting what it sends.
    static func runHelper(_ arguments: [String], environment: [String: String] = [:]) async throws -> (messages: [NotifySocket.Message], output: String, errors: String, status: Int32) {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let notify = try NotifySocket(path: scratch.url.appendingPathComponent("notify").path)
        let exited = Mutex(false)
        // Everything the child sent is queued on the socket by the time it has exited.
        async let messages = onOwnThread { notify.messages(until: { exited.withLock { $0 } }) }
        var variables = environment.mapValues { Optional($0) }
        variables["NOTIFY_SOCKET"] = notify.path
        let output = try await ChildProcess.run(ChildProcess.helper, arguments, environment: variables)
        exited.withLock { $0 = true }
        return (try await messages, output.standardOutput, output.standardError, output.status)
    }

    @Test("STATUS, READY, WATCHDOG and STOPPING arrive in order, each as one datagram")
    func notificationsInOrder() async throws {
        let run = try await Self.runHelper(["notify"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == "true true true true true\n")
        #expect(run.messages.map(\.assignments) == [
            ["STATUS=recovering 2 interrupted runs"],
            ["READY=1", "STATUS=idle"],
            ["STATUS=recording WalkAndBalance step WalkAndBalance/walk/motion"],
            ["WATCHDOG=1"],
            ["STOPPING=1", "STATUS=stopping: saving the run"],
        ])
    }

    @Test("Without NOTIFY_SOCKET every notification is a no-op that reports false")
    func noServiceManager() async throws {
        let run = try await ChildProcess.run(ChildProcess.helper, ["notify"], environment: ["NOTIFY_SOCKET": nil])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "false false false false false\n")
    }

    @Test("Watchdog pings stop when a recorder thread hangs, and the log names it")
    func watchdogStopsOnHang() async throws {
        // WATCHDOG_USEC 200 ms: a ping every 100 ms; the thread hangs after 1 s; run 2.5 s (each
        // stretched by TestTiming.scale under a sanitizer, as is the span the pings may cover).
        let hangAfter = TestTiming.tolerance(1), runFor = TestTiming.tolerance(2.5)
        let run = try await Self.runHelper(["watchdog", "\(hangAfter)", "\(runFor)"], environment: ["WATCHDOG_USEC": "200000"])
        #expect(run.status == 0, "\(run.errors)")
        let pings = run.messages.filter { $0.assignments == ["WATCHDOG=1"] }
        #expect(pings.count >= 5, "pings while healthy: \(pings.count)")
        #expect(run.messages.count == pings.count, "only WATCHDOG=1 is sent: \(run.messages.map(\.assignments))")
        // Pings span about the first second (plus the probe's 0.3 s grace), then stop for good:
        // nothing arrives during the last second of the run.
        let first = try #require(pings.first).time
        let last = try #require(pings.last).time
        #expect(last - first < hangAfter + TestTiming.tolerance(0.6), "pings went on for \(last - first) s after the thread hung at \(hangAfter) s")
        #expect(run.errors.contains("Not pinging the watchdog: recorder-thread made no progress"), "\(run.errors)")
        #expect(run.errors.components(separatedBy: "Not pinging the watchdog").count == 2, "the stuck thread is logged once, not on every tick")
    }

    @Test("In a ServiceGroup the watchdog pings until SIGTERM, then the group stops cleanly")
    func gracefulShutdown() async throws {
        let timeout = try #require(ChildProcess.tool("timeout"))
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let notify = try NotifySocket(path: scratch.url.appendingPathComponent("notify").path)
        let exited = Mutex(false)
        async let messages = onOwnThread { notify.messages(until: { exited.withLock { $0 } }) }
        // timeout(1) sends SIGTERM after 1 s, as systemctl stop does; --preserve-status gives the
        // helper's own status. SIGKILL follows if the helper has not exited after 20 s × scale, so
        // that a helper stuck at exit fails this test instead of hanging the suite (LeakSanitizer's
        // exit-time check once spun forever in it; docs/testing.md).
        let output = try await ChildProcess.run(
            timeout, ["--preserve-status", "-k", "\(Int(TestTiming.tolerance(20)))", "-s", "TERM", "1", ChildProcess.helper, "service-group"],
            environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"]
        )
        exited.withLock { $0 = true }
        let received = try await messages.map(\.assignments)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput == "stopped\n")
        #expect(received.filter { $0 == ["WATCHDOG=1"] }.count >= 5)
        #expect(received.last == ["STOPPING=1", "STATUS=stopping: saving the run"])
    }

    @Test("Without WATCHDOG_USEC there is no watchdog service")
    func watchdogDisabled() async throws {
        let run = try await ChildProcess.run(ChildProcess.helper, ["watchdog", "1", "0.1"], environment: ["WATCHDOG_USEC": nil])
        #expect(run.status == 2)
        #expect(run.standardError.contains("The watchdog is not enabled"))
    }
}
