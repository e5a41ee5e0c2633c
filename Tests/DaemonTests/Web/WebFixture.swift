import Foundation
import Glibc
import Testing
import TestSupport

/// The real `activetask-web` in front of a `DaemonFixture`'s daemon, on a free loopback port,
/// its token in the fixture's directory (docs/kiosk.md); with `proxy`, behind that TLS reverse
/// proxy (caddy or nginx), whose origin it is given as `--public-origin`.
final class WebFixture: @unchecked Sendable {
    let process: DaemonProcess
    /// activetask-web's own loopback port.
    let port: Int
    let token: String
    let proxy: TLSProxy?
    /// The file activetask-web wrote the token into.
    let tokenFile: String
    /// The launch page the kiosk opens (`token.html` beside the token file).
    let launchPage: String

    /// The built executable.
    static var executable: String {
        PackagePaths.builtExecutable(named: "activetask-web")?.path ?? "activetask-web-not-built"
    }

    /// Starts `activetask-web` for `daemon` (optionally on another asset folder, with `options`)
    /// and waits for the line saying where it listens, then starts `proxy` in front of it.
    init(_ daemon: DaemonFixture, assets: URL? = nil, proxy: TLSProxy? = nil, options: [String] = []) async throws {
        self.proxy = proxy
        let tokenFile = daemon.directory.appendingPathComponent("web-token").path
        self.tokenFile = tokenFile
        var arguments = [Self.executable, "--socket", daemon.socket, "--token-file", tokenFile, "--listen", "127.0.0.1:0"] + options
        if let proxy { arguments += ["--public-origin", proxy.publicOrigin] }
        if let assets { arguments += ["--assets", assets.path] }
        process = try daemon.spawn(arguments)
        let deadline = Date().addingTimeInterval(TestTiming.tolerance(20))
        var found: Int?
        while found == nil {
            if let ended = process.ended { throw DaemonTestFailure("activetask-web ended (\(ended)):\n\(process.output)") }
            if Date() > deadline { throw DaemonTestFailure("activetask-web did not say where it listens within \(TestTiming.tolerance(20)) s:\n\(process.output)") }
            let line = process.output.split(separator: "\n").first { $0.hasPrefix("activetask-web listening on ") }
            if let url = line?.split(separator: " ").first(where: { $0.hasPrefix("http://127.0.0.1:") }) {
                found = Int(url.split(separator: ":").last?.filter(\.isNumber) ?? "")
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        port = found ?? 0
        token = try String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let mode = (try FileManager.default.attributesOfItem(atPath: tokenFile)[.posixPermissions] as? Int) ?? 0
        guard mode == 0o600, token.count == 64 else {
            throw DaemonTestFailure("the token file has mode \(String(mode, radix: 8)) and \(token.count) characters; expected 0600 and 64")
        }
        // The kiosk's launch page, beside the token (docs/kiosk.md, "Security"), written before
        // the line that says where it listens.
        launchPage = tokenFile + ".html"
        let page = try String(contentsOfFile: launchPage, encoding: .utf8)
        let pageMode = (try FileManager.default.attributesOfItem(atPath: launchPage)[.posixPermissions] as? Int) ?? 0
        guard pageMode == 0o600, page.contains(":\(port)/login\"") || proxy.map({ page.contains("\($0.publicOrigin)/login\"") }) == true,
              page.contains("value=\"\(token)\"") else {
            throw DaemonTestFailure("the launch page has mode \(String(pageMode, radix: 8)) (expected 0600) or does not post this token to this server's /login (or its proxy's):\n\(page)")
        }
        try await proxy?.start(daemon, upstream: port)
    }

    /// Whether Debian's chromium, chromium-driver and python3-selenium are installed.
    static var browserAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
            && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/selenium")
    }

    /// The URL the kiosk opens: through the proxy when there is one.
    var url: String { proxy.map { "\($0.publicOrigin)/?token=\(token)" } ?? "http://127.0.0.1:\(port)/?token=\(token)" }

    /// The built UI files (beside the executable, as SwiftPM copies them).
    static var builtAssets: URL? {
        PackagePaths.builtExecutable(named: "activetask-web").map {
            $0.deletingLastPathComponent().appendingPathComponent("ActiveTask_WebRelay.resources/Assets")
        }
    }

    /// Checks that activetask-web and the daemon outlived what a test did to the relay (the
    /// daemon answers `daemon.info`, idle), then stops both: activetask-web must exit 0.
    func stopAfterCheckingBothRun(_ fixture: DaemonFixture, daemon: DaemonProcess) async throws {
        #expect(process.ended == nil, "\(process.output)")
        let socket = fixture.socket
        let info = try await offThread { try LineClient(path: socket, timeout: 10).result("daemon.info") }
        #expect(info["session"] as? String == "idle")
        await stop()
        #expect(process.ended == .exited(0), "\(process.output)")
        daemon.send(SIGTERM)
        _ = await daemon.waitForExit(within: TestTiming.tolerance(10))
    }

    func stop() async {
        await proxy?.stop()
        process.send(SIGTERM)
        _ = await process.waitForExit(within: DaemonProcess.exitBound)
    }
}
