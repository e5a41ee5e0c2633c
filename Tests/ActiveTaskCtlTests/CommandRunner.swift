import Foundation
import TestSupport

/// Runs the built `activetaskctl` as a real subprocess.
enum CommandRunner {
    struct Output: Equatable {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The built `activetaskctl`; when it was not built, a path that does not exist so that
    /// `run` throws.
    static var executable: URL { PackagePaths.activetaskctl ?? URL(fileURLWithPath: "activetaskctl-not-built") }

    /// Runs `activetaskctl arguments…` in the package root and collects its output.
    static func run(_ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = PackagePaths.root
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
