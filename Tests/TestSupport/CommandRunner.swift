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
        let argv = command.map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var pid: pid_t = 0
        guard FileManager.default.isExecutableFile(atPath: program.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: program.path])
        }
        let result = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
        guard result == 0 else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: program.path, NSLocalizedDescriptionKey: String(cString: strerror(result))])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Output(status: exitStatus,
                      standardOutput: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
                      standardError: (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
    }
}
