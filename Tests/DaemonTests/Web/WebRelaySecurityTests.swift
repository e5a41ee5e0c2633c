import Foundation
import Glibc
import Testing
import TestSupport

/// activetask-web's security without a browser, with clients nobody here wrote: curl and
/// Python's websockets (web_security_check.py): the token, Host and Origin, path traversal and
/// symlinks out of the asset folder, an oversized WebSocket message (docs/kiosk.md, "Security").
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
        let output = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"), [script.path, "\(web.port)", web.token, "\(TestTiming.tolerance(10))"])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(web.process.output)")
        // The relay and the daemon are still there.
        try await web.stopAfterCheckingBothRun(fixture, daemon: daemon)
    }
}
