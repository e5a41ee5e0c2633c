import Foundation
import Glibc
import TestSupport

/// Debian's caddy or nginx in front of a `WebFixture`, run from the repository's own config
/// (config/kiosk-caddy/Caddyfile, config/kiosk-nginx.conf, docs/kiosk.md "TLS") with a test
/// certificate, on a free loopback port; the browser reaches it as `https://kiosk.test:PORT`.
final class TLSProxy: @unchecked Sendable {
    enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        case caddy, nginx
        var executable: String { self == .caddy ? "/usr/bin/caddy" : "/usr/sbin/nginx" }
        var description: String { rawValue }
    }

    /// The name browsers use; the test certificate holds it.
    static let name = "kiosk.test"

    let kind: Kind
    let port: Int
    let certificate: TestCertificate
    private(set) var process: DaemonProcess?

    /// Whether caddy and nginx are installed (scripts/setup.sh installs them).
    static var available: Bool { Kind.allCases.allSatisfy { FileManager.default.isExecutableFile(atPath: $0.executable) } }

    /// Picks the port the proxy will listen on: activetask-web is told its public origin first.
    init(_ kind: Kind, certificate: TestCertificate) {
        self.kind = kind
        self.certificate = certificate
        port = LoopbackPort.free()
    }

    /// The origin activetask-web is given as `--public-origin`.
    var publicOrigin: String { "https://\(Self.name):\(port)" }

    /// Starts the proxy in front of activetask-web on 127.0.0.1:`upstream` and waits until it
    /// accepts connections.
    func start(_ fixture: DaemonFixture, upstream: Int) async throws {
        let directory = fixture.directory.appendingPathComponent("proxy-\(kind)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = PackagePaths.root.appendingPathComponent(kind == .caddy ? "config/kiosk-caddy/Caddyfile" : "config/kiosk-nginx.conf")
        let process: DaemonProcess
        switch kind {
        case .caddy:
            // The repository's Caddyfile as it is: its values from the environment.
            process = try fixture.spawn([kind.executable, "run", "--adapter", "caddyfile", "--config", config.path], environment: [
                "ACTIVETASK_PROXY_NAME": Self.name, "ACTIVETASK_PROXY_PORT": "\(port)", "ACTIVETASK_PROXY_BIND": "127.0.0.1",
                "ACTIVETASK_PROXY_CERTIFICATE": certificate.certificate.path, "ACTIVETASK_PROXY_KEY": certificate.key.path,
                "ACTIVETASK_WEB_ADDRESS": "127.0.0.1:\(upstream)",
                "XDG_DATA_HOME": directory.path, "XDG_CONFIG_HOME": directory.path,
            ])
        case .nginx:
            // The repository's server block with the test's address, certificate and upstream on
            // its three marked lines, inside a main file that keeps everything in `directory`.
            var server = try String(contentsOf: config, encoding: .utf8)
            for (old, new) in [("listen 0.0.0.0:8443 ssl;", "listen 127.0.0.1:\(port) ssl;"),
                               ("/etc/activetask/web-key.pem;", "\(certificate.key.path);"),
                               ("/etc/activetask/web.pem;", "\(certificate.certificate.path);"),
                               ("proxy_pass http://127.0.0.1:8470;", "proxy_pass http://127.0.0.1:\(upstream);")] {
                guard server.contains(old) else { throw DaemonTestFailure("config/kiosk-nginx.conf no longer has \(old)") }
                server = server.replacingOccurrences(of: old, with: new)
            }
            try server.write(to: directory.appendingPathComponent("kiosk.conf"), atomically: true, encoding: .utf8)
            let temporary = directory.path
            let main = """
                daemon off;
                user nobody nogroup;
                pid \(temporary)/nginx.pid;
                error_log stderr notice;
                events { worker_connections 512; }
                http {
                    access_log off;
                    client_body_temp_path \(temporary)/body;
                    proxy_temp_path \(temporary)/proxy;
                    fastcgi_temp_path \(temporary)/fastcgi;
                    uwsgi_temp_path \(temporary)/uwsgi;
                    scgi_temp_path \(temporary)/scgi;
                    include \(temporary)/kiosk.conf;
                }

                """
            let mainFile = directory.appendingPathComponent("nginx.conf")
            try main.write(to: mainFile, atomically: true, encoding: .utf8)
            process = try fixture.spawn([kind.executable, "-p", temporary, "-e", "stderr", "-c", mainFile.path])
        }
        self.process = process
        let deadline = Date().addingTimeInterval(TestTiming.tolerance(20))
        while !LoopbackPort.accepts(port) {
            if let ended = process.ended { throw DaemonTestFailure("\(kind) ended (\(ended)):\n\(process.output)") }
            if Date() > deadline { throw DaemonTestFailure("\(kind) did not listen on \(port) within \(TestTiming.tolerance(20)) s:\n\(process.output)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    func stop() async {
        process?.send(SIGTERM)
        _ = await process?.waitForExit(within: TestTiming.tolerance(10))
    }
}
