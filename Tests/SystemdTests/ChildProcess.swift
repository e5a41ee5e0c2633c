import Foundation
import TestSupport

/// Runs a real executable (the test helper, systemd tools, umockdev) and collects its output.
enum ChildProcess {
    struct Output: Sendable {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The built `systemd-test-helper`.
    static var helper: String {
        PackagePaths.builtExecutable(named: "systemd-test-helper")?.path ?? "systemd-test-helper-not-built"
    }

    /// Runs `executable arguments…` with `environment` added to (or, with nil values, removed
    /// from) this process's environment, on a thread of its own.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String?] = [:],
        currentDirectory: URL = PackagePaths.root
    ) async throws -> Output {
        try await onOwnThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.currentDirectoryURL = currentDirectory
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in environment { merged[name] = value }
            process.environment = merged
            let output = Pipe()
            let error = Pipe()
            process.standardOutput = output
            process.standardError = error
            try process.run()
            let errorData = Box()
            let group = DispatchGroup()
            group.enter()
            DispatchQueue.global().async {
                errorData.data = error.fileHandleForReading.readDataToEndOfFile()
                group.leave()
            }
            let outputData = output.fileHandleForReading.readDataToEndOfFile()
            group.wait()
            process.waitUntilExit()
            return Output(
                status: process.terminationStatus,
                standardOutput: String(decoding: outputData, as: UTF8.self),
                standardError: String(decoding: errorData.data, as: UTF8.self)
            )
        }
    }

    /// Locates a tool on PATH (and the sbin directories root's PATH may lack).
    static func tool(_ name: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/sbin:/sbin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// Bytes read on another thread; written before `group.leave()`, read after `wait()`.
private final class Box: @unchecked Sendable {
    var data = Data()
}
