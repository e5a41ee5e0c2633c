import Foundation
import TestSupport

/// A fresh self-signed certificate and key for `activetask-web`'s TLS tests, made by the
/// openssl command: valid for `kiosk.test`, 127.0.0.1 and ::1.
struct TestCertificate: Sendable {
    let certificate: URL
    let key: URL
    /// The base64 SHA-256 of its public key, as Chromium's `--ignore-certificate-errors-spki-list`
    /// takes it (trusting this key only).
    let publicKeyHash: String

    /// Makes one in `directory` named `name`.pem and `name`-key.pem.
    static func make(in directory: URL, name: String = "web") async throws -> TestCertificate {
        let certificate = directory.appendingPathComponent("\(name).pem"), key = directory.appendingPathComponent("\(name)-key.pem")
        let made = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/openssl"), [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
            "-keyout", key.path, "-out", certificate.path, "-subj", "/CN=kiosk.test",
            "-addext", "subjectAltName=DNS:kiosk.test,IP:127.0.0.1,IP:::1",
        ])
        guard made.status == 0 else { throw DaemonTestFailure("openssl req failed: \(made.standardError)") }
        let hash = try await CommandRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c",
            "openssl x509 -in '\(certificate.path)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"])
        guard hash.status == 0 else { throw DaemonTestFailure("the key's hash failed: \(hash.standardError)") }
        return TestCertificate(certificate: certificate, key: key, publicKeyHash: hash.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
