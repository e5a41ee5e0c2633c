import Foundation
import Glibc
import TestSupport

/// Another local user looking for a secret in every process it may look into
/// (`proc_token_scan.py`, run as `user` through setpriv) until `finish()`. A decoy of that
/// user's own carries a canary in its command line and its environment, so a scan that reads
/// nothing is caught rather than passed.
final class TokenScan: @unchecked Sendable {
    /// What the scan saw.
    struct Seen {
        /// Where the token was seen ("cmdline of 123 (chromium)"); empty is the pass.
        var token: [String]
        var canaryInCommandLine: Bool
        var canaryInEnvironment: Bool
        /// The scan's report as it printed it.
        var report: String
    }

    private let scanner: DaemonProcess
    private let decoy: DaemonProcess
    private let stopFile: URL

    init(in fixture: DaemonFixture, token: String, user: (uid: Int, gid: Int)) throws {
        let folder = fixture.directory.appendingPathComponent("token-scan")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let secrets = folder.appendingPathComponent("secrets")
        let canary = "canary-\(UUID().uuidString)"
        try Data("token=\(token)\ncanary=\(canary)\n".utf8).write(to: secrets)
        for path in [folder.path, secrets.path] { chown(path, uid_t(user.uid), gid_t(user.gid)) }
        chmod(folder.path, 0o700)
        chmod(secrets.path, 0o600)
        stopFile = folder.appendingPathComponent("stop")
        let asUser = ["/usr/bin/setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups"]
        // `sh -c '…' canary`: the canary is the shell's $0, in its command line, for its life.
        decoy = try fixture.spawn(asUser + ["/bin/sh", "-c", "sleep 600; exit 0", canary], environment: ["SCAN_CANARY": canary])
        scanner = try fixture.spawn(asUser + ["/usr/bin/python3", BrowserRun.script("proc_token_scan.py"), secrets.path, stopFile.path])
    }

    /// Asks the scan for one last round, waits for its report and reads it.
    func finish() async throws -> Seen {
        // The folder is the scan user's; root makes the file there all the same.
        guard FileManager.default.createFile(atPath: stopFile.path, contents: nil) else {
            throw DaemonTestFailure("the token scan's stop file \(stopFile.path) could not be made")
        }
        guard await scanner.waitForExit(within: TestTiming.tolerance(60)) != nil else {
            throw DaemonTestFailure("the token scan did not end after its stop file:\n\(scanner.output)")
        }
        let output = scanner.output
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
              let report = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let found = report["found"] as? [String: [String]] else {
            throw DaemonTestFailure("the token scan printed no report:\n\(output)")
        }
        let canary = found["canary"] ?? []
        return Seen(token: found["token"] ?? [], canaryInCommandLine: canary.contains { $0.hasPrefix("cmdline") },
                    canaryInEnvironment: canary.contains { $0.hasPrefix("environ") }, report: String(line))
    }

    /// Ends the scan and the decoy, whatever state the test left them in.
    func end() {
        for process in [scanner, decoy] where process.ended == nil { process.send(SIGKILL) }
        _ = decoy.ended
    }
}
