import Foundation
import TestSupport

/// The programs the Systemd tests run: the test helper and systemd's tools.
enum ChildProcess {
    typealias Output = CommandRunner.Output

    /// The built `systemd-test-helper`.
    static var helper: String {
        PackagePaths.builtExecutable(named: "systemd-test-helper")?.path ?? "systemd-test-helper-not-built"
    }

    /// Runs `executable arguments…` with `environment` added to (nil values: removed from) this
    /// process's environment.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String?] = [:]) async throws -> Output {
        try await CommandRunner.run(URL(fileURLWithPath: executable), arguments, environment: environment)
    }

    /// Locates a tool on PATH (and the sbin directories root's PATH may lack).
    static func tool(_ name: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/sbin:/sbin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
