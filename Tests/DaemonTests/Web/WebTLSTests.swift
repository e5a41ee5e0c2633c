import Foundation
import Glibc
import Testing
import TestSupport

/// activetask-web with TLS (docs/kiosk.md, "TLS"): another address than loopback only with a
/// certificate and key; HTTPS and the WebSocket over it checked with curl and Python's
/// websockets (web_tls_check.py), the UI in Chromium over HTTPS (browser_tls.py), and every
/// bad start refused with a sentence that says what to do.
@Suite(
    "activetask-web: TLS",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"),
             "curl or openssl is not installed (scripts/setup.sh installs them)."))
struct WebTLSTests {
    /// The arguments after `--socket`/`--token-file` and what activetask-web must say (exit 2).
    static func badStarts(_ certificate: TestCertificate, other: TestCertificate, notPEM: URL) -> [(arguments: [String], says: String)] {
        [
            (["--listen", "0.0.0.0:0"], "Pass --tls-certificate and --tls-key"),
            (["--listen", "192.168.1.2:8443"], "is not a loopback address"),
            (["--listen", "0.0.0.0:0", "--tls-certificate", certificate.certificate.path], "go together"),
            (["--tls-key", certificate.key.path], "go together"),
            (["--tls-certificate", notPEM.path, "--tls-key", certificate.key.path], "cannot be used"),
            (["--tls-certificate", certificate.certificate.path, "--tls-key", notPEM.path], "cannot be used"),
            (["--tls-certificate", certificate.certificate.path, "--tls-key", other.key.path], "does not belong to the certificate"),
            (["--listen", "kiosk.test:8443", "--tls-certificate", certificate.certificate.path, "--tls-key", certificate.key.path], "is not HOST:PORT"),
        ]
    }

    @Test("A non-loopback address without TLS, half a TLS pair, a file that is not PEM and a key of another certificate are refused with what to do")
    func badStartsAreRefused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webtls-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = try await TestCertificate.make(in: directory)
        let other = try await TestCertificate.make(in: directory, name: "other")
        let notPEM = directory.appendingPathComponent("not.pem")
        try Data("not a certificate\n".utf8).write(to: notPEM)
        for (arguments, says) in Self.badStarts(certificate, other: other, notPEM: notPEM) {
            let output = try await CommandRunner.run(URL(fileURLWithPath: WebFixture.executable),
                ["--socket", directory.appendingPathComponent("none.sock").path,
                 "--token-file", directory.appendingPathComponent("token").path] + arguments)
            #expect(output.status == 2, "\(arguments): \(output.standardError)")
            #expect(output.standardError.contains(says), "\(arguments) should say \"\(says)\": \(output.standardError)")
        }
    }

    @Test("On 0.0.0.0 with a certificate: HTTPS by address and by name, the token, Host and Origin, no plain HTTP, no TLS 1.1, the WebSocket over TLS")
    func servesOverTLS() async throws {
        let fixture = try await DaemonFixture("webtls")
        let daemon = try await fixture.start()
        let certificate = try await TestCertificate.make(in: fixture.directory)
        let web = try await WebFixture(fixture, tls: certificate)
        let script = PackagePaths.root.appendingPathComponent("Tests/DaemonTests/Web/web_tls_check.py")
        let output = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"),
            [script.path, "\(web.port)", web.token, certificate.certificate.path, "\(TestTiming.tolerance(10))"])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(web.process.output)")
        #expect(web.process.ended == nil, "\(web.process.output)")
        await web.stop()
        #expect(web.process.ended == .exited(0), "\(web.process.output)")
        daemon.send(SIGTERM)
        _ = await daemon.waitForExit(within: TestTiming.tolerance(10))
    }

    @Test("The UI over HTTPS in Chromium: the home screen lists the task over the WebSocket and the task starts",
          .enabled(if: TestTiming.scale == 1, "Under a sanitizer the browser is skipped, as in WebBrowserTests."),
          .enabled(if: WebFixture.browserAvailable, "chromium, chromium-driver or python3-selenium is missing (scripts/setup.sh installs them)."))
    func browserOverTLS() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webtls-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = try await TestCertificate.make(in: directory)
        let browser = try await BrowserRun("webtlsui", tasks: ["ShortWalk.json": Data(WebBrowserTests.task.utf8)], tls: certificate)
        let output = try await browser.runScript("browser_tls.py", [certificate.publicKeyHash, "ShortWalk.json", "Walk a few steps"])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)\n\(browser.web.process.output)")
        await browser.stop()
    }
}
