import Foundation
import Glibc
import TestSupport

/// One browser test's set-up: the real `activetaskd` whose task directory holds the given
/// files, the real `activetask-web` in front of it, and the folder the screenshots go to
/// (`ACTIVETASK_WEB_SCREENSHOTS`, else the fixture's directory).
final class BrowserRun: @unchecked Sendable {
    let fixture: DaemonFixture
    let daemon: DaemonProcess
    let web: WebFixture
    let shots: URL
    /// The daemon's arguments, for starting it again on the same tasks.
    let arguments: [String]

    /// `tasks` maps a file name in the task directory to its contents; with `proxy`, the UI is
    /// reached through that TLS reverse proxy, and with `launchThroughProxy` the launch page
    /// posts the token to it (`--launch-origin`).
    init(_ name: String, tasks: [String: Data], proxy: TLSProxy.Kind? = nil, launchThroughProxy: Bool = false) async throws {
        fixture = try await DaemonFixture(name)
        let directory = fixture.directory.appendingPathComponent("tasks")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (file, contents) in tasks { try contents.write(to: directory.appendingPathComponent(file)) }
        arguments = fixture.arguments() + ["--task-directory", directory.path]
        daemon = try await fixture.start(arguments)
        var tlsProxy: TLSProxy?
        if let proxy { tlsProxy = TLSProxy(proxy, certificate: try await TestCertificate.make(in: fixture.directory)) }
        let options = launchThroughProxy ? tlsProxy.map { ["--launch-origin", $0.publicOrigin] } ?? [] : []
        web = try await WebFixture(fixture, proxy: tlsProxy, options: options)
        shots = ProcessInfo.processInfo.environment["ACTIVETASK_WEB_SCREENSHOTS"].map { URL(fileURLWithPath: $0) }
            ?? fixture.directory.appendingPathComponent("screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
    }

    /// The path of the browser script `name` in Tests/DaemonTests/Web.
    static func script(_ name: String) -> String {
        PackagePaths.root.appendingPathComponent("Tests/DaemonTests/Web/\(name)").path
    }

    /// Runs the browser script `name` with the UI's URL and then `arguments`, to its end.
    func runScript(_ name: String, _ arguments: [String]) async throws -> CommandRunner.Output {
        try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"), [Self.script(name), web.url] + arguments)
    }

    /// The daemon's `runs.list`.
    func runs() async throws -> [[String: Any]] {
        let socket = fixture.socket
        let list = try await offThread { try LineClient(path: socket, timeout: 10).result("runs.list") }
        return list["runs"] as? [[String: Any]] ?? []
    }

    /// Stops `activetask-web`, then the daemon.
    func stop() async {
        await web.stop()
        daemon.send(SIGTERM)
        _ = await daemon.waitForExit(within: TestTiming.tolerance(10))
    }
}
