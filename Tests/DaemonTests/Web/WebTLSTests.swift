import Foundation
import Glibc
import Testing
import TestSupport

/// activetask-web behind a TLS reverse proxy (docs/kiosk.md, "TLS"): Debian's caddy and nginx
/// run from the repository's own config (config/kiosk-caddy/Caddyfile, config/kiosk-nginx.conf)
/// with a self-signed certificate; HTTPS and the WebSocket through them checked with curl and
/// Python's websockets (web_tls_check.py), the UI in Chromium over HTTPS through caddy
/// (browser_tls.py), and every start that would serve beyond loopback, or TLS itself, refused
/// with a sentence that says what to do.
@Suite(
    "activetask-web: TLS through a reverse proxy",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"),
             "curl or openssl is not installed (scripts/setup.sh installs them)."))
struct WebTLSTests {
    /// The arguments after `--socket`/`--token-file` and what activetask-web must say (exit 2).
    static func badStarts(_ certificate: TestCertificate) -> [(arguments: [String], says: String)] {
        [
            (["--listen", "0.0.0.0:0"], "put a TLS reverse proxy (caddy or nginx) in front"),
            (["--listen", "192.168.1.2:8443"], "is not a loopback address"),
            (["--tls-certificate", certificate.certificate.path, "--tls-key", certificate.key.path], "no longer serves TLS itself"),
            (["--tls-key", certificate.key.path], "config/kiosk-caddy/Caddyfile"),
            (["--public-origin", "http://kiosk.test:8443"], "is not an https origin"),
            (["--public-origin", "https://kiosk.test:8443/kiosk"], "without a path"),
            (["--public-origin", "https://kiosk.test:8443", "--launch-origin", "https://other.test:8443"], "is not one of the --public-origin's"),
            (["--launch-origin", "http://127.0.0.1:8470"], "is not an https origin"),
            (["--request-timeout", "0"], "--request-timeout 0 is not a number of seconds above 0"),
            (["--stalled-timeout", "soon"], "--stalled-timeout soon is not a number of seconds above 0"),
        ]
    }

    @Test("Another address than loopback, the old TLS options, an http or pathed public origin, a launch origin that is not public and a bad timeout are refused with what to do")
    func badStartsAreRefused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webtls-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = try await TestCertificate.make(in: directory)
        for (arguments, says) in Self.badStarts(certificate) {
            let output = try await CommandRunner.run(URL(fileURLWithPath: WebFixture.executable),
                ["--socket", directory.appendingPathComponent("none.sock").path,
                 "--token-file", directory.appendingPathComponent("token").path] + arguments)
            #expect(output.status == 2, "\(arguments): \(output.standardError)")
            #expect(output.standardError.contains(says), "\(arguments) should say \"\(says)\": \(output.standardError)")
        }
    }

    @Test("Through the proxy: HTTPS by name, a Secure cookie, the token, Host and Origin, no plain HTTP, no TLS 1.1, the WebSocket over TLS",
          .enabled(if: TLSProxy.available, "caddy or nginx is not installed (scripts/setup.sh installs them)."),
          arguments: TLSProxy.Kind.allCases)
    func servesThroughTheProxy(kind: TLSProxy.Kind) async throws {
        let fixture = try await DaemonFixture("webtls-\(kind)")
        let daemon = try await fixture.start()
        let certificate = try await TestCertificate.make(in: fixture.directory)
        let web = try await WebFixture(fixture, proxy: TLSProxy(kind, certificate: certificate))
        let script = PackagePaths.root.appendingPathComponent("Tests/DaemonTests/Web/web_tls_check.py")
        let output = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"),
            [script.path, "\(try #require(web.proxy).port)", "\(web.port)", web.token, certificate.certificate.path, "\(TestTiming.tolerance(10))"])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(web.process.output)\n\(web.proxy?.process?.output ?? "")")
        try await web.stopAfterCheckingBothRun(fixture, daemon: daemon)
    }

    @Test("The UI over HTTPS through caddy in Chromium: the home screen lists the task over the WebSocket and the task starts",
          .enabled(if: TestTiming.scale == 1, "Under a sanitizer the browser is skipped, as in WebBrowserTests."),
          .enabled(if: WebFixture.browserAvailable, "chromium, chromium-driver or python3-selenium is missing (scripts/setup.sh installs them)."),
          .enabled(if: TLSProxy.available, "caddy or nginx is not installed (scripts/setup.sh installs them)."))
    func browserOverTLS() async throws {
        let browser = try await BrowserRun("webtlsui", tasks: ["ShortWalk.json": Data(WebBrowserTests.task.utf8)], proxy: .caddy)
        let certificate = try #require(browser.web.proxy?.certificate)
        let output = try await browser.runScript("browser_tls.py", [certificate.publicKeyHash, "ShortWalk.json", "Walk a few steps"])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(browser.web.process.output)")
        await browser.stop()
    }

    @Test("The kiosk's launch page over HTTPS through caddy (--launch-origin) logs Chromium in: the home screen, a Secure cookie, no token in the tab's history",
          .enabled(if: TestTiming.scale == 1, "Under a sanitizer the browser is skipped, as in WebBrowserTests."),
          .enabled(if: WebFixture.browserAvailable, "chromium, chromium-driver or python3-selenium is missing (scripts/setup.sh installs them)."),
          .enabled(if: TLSProxy.available, "caddy or nginx is not installed (scripts/setup.sh installs them)."))
    func launchPageOverTLS() async throws {
        let browser = try await BrowserRun("webtlslaunch", tasks: ["ShortWalk.json": Data(WebBrowserTests.task.utf8)], proxy: .caddy, launchThroughProxy: true)
        let certificate = try #require(browser.web.proxy?.certificate)
        let output = try await browser.runScript("browser_tls.py", [certificate.publicKeyHash, "ShortWalk.json", "Walk a few steps", browser.web.launchPage])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(browser.web.process.output)")
        await browser.stop()
    }
}
