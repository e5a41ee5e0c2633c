public import Foundation
import Glibc

/// Runs the built `activetaskctl` (or another real program) as a subprocess.
public enum CommandRunner {
    /// What the child process left: its exit status and everything it printed.
    public struct Output: Equatable, Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String

        public init(status: Int32, standardOutput: String, standardError: String) {
            self.status = status
            self.standardOutput = standardOutput
            self.standardError = standardError
        }
    }

    /// The built `activetaskctl`; when it was not built, a path that does not exist so that
    /// `run` throws.
    public static var executable: URL { PackagePaths.activetaskctl ?? URL(fileURLWithPath: "activetaskctl-not-built") }

    /// Runs `activetaskctl arguments…` in the package root and collects its output.
    public static func run(_ arguments: [String]) async throws -> Output {
        try await run(executable, arguments)
    }

    /// Runs `program arguments…` in the package root with `environment` added to (nil values:
    /// removed from) this process's environment, and collects its output.
    public static func run(_ program: URL, _ arguments: [String], environment: [String: String?] = [:]) async throws -> Output {
        try await onOwnThread { try runBlocking(program, arguments, environment: environment) }
    }

    /// `run` on the calling thread, for code that is not async.
    ///
    /// Spawned and reaped here with posix_spawn and waitpid, not with Foundation's `Process`:
    /// Foundation reaps its children one blocking wait at a time, so while another test's
    /// long-lived child runs, a finished one stays a zombie and its `waitUntilExit` never returns.
    public static func runBlocking(_ program: URL, _ arguments: [String], environment: [String: String?] = [:]) throws -> Output {
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment { merged[name] = value }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("command-\(UUID().uuidString)")
        let outputURL = scratch.appendingPathExtension("out"), errorURL = scratch.appendingPathExtension("err")
        defer {
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        // In the package root: `sh` changes directory and execs the program in its place
        // (posix_spawn's addchdir is not visible from Swift's Glibc module).
        let command = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", PackagePaths.root.path, program.path] + arguments
        guard FileManager.default.isExecutableFile(atPath: program.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: program.path])
        }
        // Both files are new (unique names), so ChildSpawn's appended standard output starts empty.
        let pid = try ChildSpawn.spawn(
            command, environment: merged, standardOutput: outputURL.path, standardError: errorURL.path)
        return Output(status: ChildSpawn.waitForExit(pid),
                      standardOutput: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
                      standardError: (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
    }
}
