import Foundation
import Glibc
import Testing
import TestSupport

/// activetask-web's security without a browser, with clients nobody here wrote: curl and
/// Python's websockets (web_security_check.py): the token, Host and Origin, path traversal and
/// symlinks out of the asset folder, an oversized WebSocket message, the launch page's login
/// (docs/kiosk.md, "Security"); what a tab and a non-administrator may ask the daemon
/// (kiosk_access_check.py; docs/kiosk.md, "What a tab may do").
@Suite(
    "activetask-web: security",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed (scripts/setup.sh installs it)."))
struct WebRelaySecurityTests {
    @Test("Missing or wrong token, foreign Host or Origin, traversal, symlinks out and a message over 1 MiB are refused; the daemon goes on")
    func refusals() async throws {
        let fixture = try await DaemonFixture("websec")
        let daemon = try await fixture.start()
        // The built UI plus a file inside, a hidden one and a symlink to a file outside.
        let assets = fixture.directory.appendingPathComponent("assets")
        try FileManager.default.copyItem(at: try #require(WebFixture.builtAssets), to: assets)
        try Data("inside\n".utf8).write(to: assets.appendingPathComponent("inside.txt"))
        try Data("hidden\n".utf8).write(to: assets.appendingPathComponent(".hidden.txt"))
        let outside = fixture.directory.appendingPathComponent("outside.txt")
        try Data("secret\n".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(at: assets.appendingPathComponent("outside.txt"), withDestinationURL: outside)

        let web = try await WebFixture(fixture, assets: assets)
        let script = PackagePaths.root.appendingPathComponent("Tests/DaemonTests/Web/web_security_check.py")
        let output = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"), [script.path, "\(web.port)", web.tokenFile, "\(TestTiming.tolerance(10))"])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(web.process.output)")
        // Refusals and logins are logged, never with the token.
        #expect(web.process.output.contains("Login refused") && !web.process.output.contains(web.token), "\(web.process.output)")
        // The relay and the daemon are still there.
        try await web.stopAfterCheckingBothRun(fixture, daemon: daemon)
    }

    /// The fixture's task directory (`tasks`), holding `files` (name → JSON).
    static func taskDirectory(of fixture: DaemonFixture, with files: [String: String]) throws -> URL {
        let tasks = fixture.directory.appendingPathComponent("tasks")
        try FileManager.default.createDirectory(at: tasks, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: tasks.appendingPathComponent(name)) }
        return tasks
    }

    /// Three steps, none timed: a run that waits for its tab.
    static let threeStepTask = """
    { "identifier": "Three", "title": "Three",
      "steps": [ { "identifier": "welcome", "type": "instruction", "title": "Welcome" },
                 { "identifier": "middle", "type": "instruction", "title": "Middle" },
                 { "identifier": "done", "type": "completion", "title": "Well done" } ] }
    """

    /// Three steps with motion recorded from the second: a run whose end (results, recorder files,
    /// quality checks, archive) takes the daemon longer than a run of `threeStepTask` takes to start.
    static let recordingTask = """
    { "identifier": "Recording", "title": "Recording",
      "asyncActions": [ { "identifier": "motion", "type": "motion", "startStepIdentifier": "walk",
                          "recorderTypes": ["accelerometer", "gyro"], "frequency": 100 } ],
      "steps": [ { "identifier": "welcome", "type": "instruction", "title": "Welcome" },
                 { "identifier": "walk", "type": "active", "duration": 60, "commands": ["startTimerAutomatically"] },
                 { "identifier": "done", "type": "completion", "title": "Well done" } ] }
    """

    @Test("A tab sees and drives only the run it started: another tab gets none of its events, a run.status with its state alone and its run commands refused; the first tab reconnecting with its key goes on with its run; once it has ended the other tab runs its own; a run another client ends and replaces at once shows nothing of the new run, and a run command naming the ended run is refused")
    func ownRun() async throws {
        let fixture = try await DaemonFixture("ownrun")
        let tasks = try Self.taskDirectory(of: fixture, with: ["Three.json": Self.threeStepTask, "Recording.json": Self.recordingTask])
        let daemon = try await fixture.start(fixture.arguments() + ["--task-directory", tasks.path])
        let web = try await WebFixture(fixture)
        let script = PackagePaths.root.appendingPathComponent("Tests/DaemonTests/Web/kiosk_own_run_check.py").path
        let output = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"),
                                                 [script, "\(web.port)", web.tokenFile, "Three.json", "Recording.json", fixture.socket, "\(TestTiming.tolerance(10))"])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(web.process.output)")
        #expect(web.process.ended == nil && daemon.ended == nil, "\(web.process.output)")
        await web.stop()
        daemon.send(SIGTERM)
        _ = await daemon.waitForExit(within: TestTiming.tolerance(10))
    }

    /// Inline task.loads made directly on the socket (a tab may not make them): 10,000 in the
    /// plain pass; 1,000 under a sanitizer, where 10,000 took three minutes and made this the
    /// pass's longest test while showing the sanitizer nothing 1,000 do not.
    static let inlineLoads = TestTiming.scale == 1 ? 10_000 : 1_000

    @Test("A tab reaches only a participant's methods; task.load outside the task directory is refused to a tab and to a non-administrator; 10,000 inline loads leave the data directory as it was")
    func kioskAccess() async throws {
        let fixture = try await DaemonFixture("kioskacc")
        let tasks = try Self.taskDirectory(of: fixture, with: ["Hello.json": WebBrowserTests.helloTask])
        // A valid task outside the directory and a symlink to it inside: without the check it loads.
        let outside = fixture.directory.appendingPathComponent("Outside.json")
        try Data(WebBrowserTests.helloTask.utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(at: tasks.appendingPathComponent("escape.json"), withDestinationURL: outside)
        // A step file outside, and a task inside that includes it: for an administrator it loads.
        try Data(#"{"identifier": "outside", "type": "instruction", "title": "Outside"}"#.utf8)
            .write(to: fixture.directory.appendingPathComponent("OutsideStep.json"))
        try Data(#"{"identifier": "Including", "steps": [{"identifier": "moved", "type": "transform", "resourceTransformer": {"resourceName": "../OutsideStep"}}]}"#.utf8)
            .write(to: tasks.appendingPathComponent("Including.json"))
        // A folder an earlier daemon left mid-load goes at start.
        let stale = fixture.dataDirectory.appendingPathComponent("inline-tasks/\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: stale.appendingPathComponent("Moved.json"))
        let daemon = try await fixture.start(fixture.arguments() + ["--task-directory", tasks.path])
        #expect(!FileManager.default.fileExists(atPath: stale.path), "the stale inline-task folder is still there after start")
        let web = try await WebFixture(fixture)
        let script = PackagePaths.root.appendingPathComponent("Tests/DaemonTests/Web/kiosk_access_check.py").path
        let socket = fixture.socket
        let openRPC = PackagePaths.root.appendingPathComponent("docs/openrpc.json").path
        let timeout = "\(TestTiming.tolerance(10))"

        let relay = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"), [script, "relay", "\(web.port)", web.tokenFile, openRPC, timeout])
        #expect(relay.status == 0, "\(relay.standardOutput)\n\(relay.standardError)\n\(web.process.output)")

        // The same socket from a user that is not the daemon's administrator (nobody): the test's
        // socket is made reachable to it, as group activetask-ui reaches the installed one.
        chmod(fixture.directory.path, 0o711)
        chmod(fixture.socket, 0o666)
        let direct = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", script, "socket", fixture.socket, tasks.path, "Hello.json", timeout])
        #expect(direct.status == 0, "\(direct.standardOutput)\n\(direct.standardError)")

        let admin = try await offThread { try LineClient(path: socket, timeout: 10).result("task.load", ["path": "Including.json"]) }
        #expect(admin["taskIdentifier"] as? String == "Including", "the administrator loads a task including a file outside: \(admin)")

        let inline = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"), [script, "inline", fixture.socket, fixture.dataDirectory.path, "\(Self.inlineLoads)", timeout])
        #expect(inline.status == 0, "\(inline.standardOutput)\n\(inline.standardError)")

        #expect(web.process.ended == nil && daemon.ended == nil)
        await web.stop()
        daemon.send(SIGTERM)
        _ = await daemon.waitForExit(within: TestTiming.tolerance(10))
    }
}
