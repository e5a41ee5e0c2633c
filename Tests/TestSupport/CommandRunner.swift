public import Foundation

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

    private static func runBlocking(_ program: URL, _ arguments: [String], environment: [String: String?]) throws -> Output {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = PackagePaths.root
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in environment { merged[name] = value }
            process.environment = merged
        }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Drain standard error on another thread so that neither pipe can fill up and block the child.
        let errorBox = DataBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorBox.data = error.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errorData = errorBox.data
        process.waitUntilExit()
        return Output(status: process.terminationStatus,
                      standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: String(decoding: errorData, as: UTF8.self))
    }
}

/// Carries bytes read on another thread; written once before `group.leave()`, read after `wait()`.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
