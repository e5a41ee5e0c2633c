import Foundation
import Glibc
import Testing
import TestSupport

/// activetask-web holds its buffers and its descriptors (docs/kiosk.md, "Limits"), with the real
/// daemon and clients nobody here wrote (web_limits_check.py: Python's websockets, plain
/// sockets): a tab that sends and never reads is closed while activetask-web's memory stays
/// within what its water marks and message limits allow; a WebSocket that answers no ping is
/// closed; connections that never finish a request are closed after the request timeout.
@Suite("activetask-web: limits")
struct WebRelayLimitsTests {
    /// What one relayed WebSocket may hold, from activetask-web's defaults (WebRelayConfiguration):
    /// each side's write buffer up to its high water mark (256 KiB) and the one message that
    /// crossed it, the daemon's line being read (16 MiB at most) and the browser's message being
    /// read (1 MiB at most).
    static let perWebSocket = 2 * (256 << 10) + 2 * (16 << 20) + 2 * (1 << 20)
    /// What a WebSocket whose every request the relay refuses itself may hold: the browser's
    /// write buffer up to its high water mark, the answer that crossed it (a refusal names the
    /// method twice: 2 MiB for a 1 MiB message) and the browser's message being read.
    static let perRefusedWebSocket = (256 << 10) + 2 * (1 << 20) + (1 << 20)
    /// Besides: the allocator's arenas of the event loop threads and their read buffers.
    static let allocatorAllowance = 8 << 20

    /// Runs web_limits_check.py with `arguments` against `web`; it must pass every check.
    static func check(_ arguments: [String], _ web: WebFixture) async throws {
        let script = PackagePaths.root.appendingPathComponent("Tests/DaemonTests/Web/web_limits_check.py").path
        let output = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"), [script] + arguments)
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(web.process.output)")
    }

    /// Resident memory under a sanitizer's allocator (its quarantine, its shadow) is not what
    /// ships: the two memory bounds are judged in the plain passes only.
    static let plainAllocator = Testing.ConditionTrait.enabled(
        if: TestTiming.scale == 1, "Under a sanitizer the allocator's quarantine, not the relay, decides the resident memory.")

    @Test("A tab sending 10,000 tasks.resource requests without reading is closed; activetask-web's memory stays within its buffers' bound",
          plainAllocator)
    func tabThatDoesNotRead() async throws {
        let fixture = try await DaemonFixture("weblimits")
        let tasks = fixture.directory.appendingPathComponent("tasks")
        try FileManager.default.createDirectory(at: tasks, withIntermediateDirectories: true)
        try Data(WebBrowserTests.task.utf8).write(to: tasks.appendingPathComponent("ShortWalk.json"))
        // A 24 KiB page: 32 KiB of base64 in each answer, 320 MB for 10,000 of them.
        let page = "<html><body>" + String(repeating: "<p>learn more</p>\n", count: 24 * 1024 / 18) + "</body></html>\n"
        try Data(page.utf8).write(to: tasks.appendingPathComponent("page.html"))
        let daemon = try await fixture.start(fixture.arguments() + ["--task-directory", tasks.path])
        // A tab that takes nothing is closed after 3 s here (30 s by default).
        let web = try await WebFixture(fixture, options: ["--stalled-timeout", "3"])
        try await Self.check(["backpressure", "\(web.port)", web.token, "\(web.process.pid)", "ShortWalk.json", "page.html", "10000",
                             "\(Self.perWebSocket + Self.allocatorAllowance)", "\(TestTiming.tolerance(60))"], web)
        // The relay and the daemon go on.
        try await web.stopAfterCheckingBothRun(fixture, daemon: daemon)
    }

    @Test("A tab sending 20,000 requests for a method it may not call, without reading the refusals, is closed; activetask-web's memory stays within its buffers' bound",
          plainAllocator)
    func tabThatDoesNotReadItsRefusals() async throws {
        let fixture = try await DaemonFixture("webrefused")
        let daemon = try await fixture.start()
        // Closed after 10 s of taking nothing: time enough for a relay that read on to answer
        // most of the 20,000 (about 4 KiB each, 80 MB; one that did grew 25 MiB in 3 s).
        let web = try await WebFixture(fixture, options: ["--stalled-timeout", "10"])
        try await Self.check(["refused", "\(web.port)", web.token, "\(web.process.pid)", "20000",
                             "\(Self.perRefusedWebSocket + Self.allocatorAllowance)", "\(TestTiming.tolerance(60))"], web)
        try await web.stopAfterCheckingBothRun(fixture, daemon: daemon)
    }

    @Test("A WebSocket that answers no ping is closed; one that answers, idle as long, stays")
    func pings() async throws {
        let fixture = try await DaemonFixture("webping")
        let daemon = try await fixture.start()
        let web = try await WebFixture(fixture, options: ["--ping-interval", "1"])
        try await Self.check(["ping", "\(web.port)", web.token, "\(TestTiming.tolerance(60))"], web)
        try await web.stopAfterCheckingBothRun(fixture, daemon: daemon)
    }

    @Test("2,000 connections that never finish a request are closed after the request timeout: descriptors back to their idle count")
    func connectionsWithoutARequest() async throws {
        let fixture = try await DaemonFixture("webidle")
        let daemon = try await fixture.start()
        let web = try await WebFixture(fixture, options: ["--request-timeout", "2"])
        try await Self.check(["descriptors", "\(web.port)", "\(web.process.pid)", "2000", "\(TestTiming.tolerance(120))"], web)
        // A real request is still served after them.
        let page = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/curl"),
            ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(web.port)/?token=\(web.token)"])
        #expect(page.standardOutput == "200", "\(page.standardOutput) \(page.standardError)")
        try await web.stopAfterCheckingBothRun(fixture, daemon: daemon)
    }
}
