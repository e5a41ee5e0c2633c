import Foundation
import Glibc

/// A PulseAudio server with one null sink, started by a test in its own runtime directory and
/// terminated by it (only this process is ever signalled).
final class PulseServer {
    enum Instance: String {
        case main = "pulse-main"
        case secondary = "pulse-secondary"

        func runtimeDirectory(in base: URL) -> URL { base.appendingPathComponent(rawValue) }
    }

    let process: Process
    let runtimeDirectory: URL

    private init(process: Process, runtimeDirectory: URL) {
        self.process = process
        self.runtimeDirectory = runtimeDirectory
    }

    /// Starts the server and waits until its socket accepts connections.
    static func start(_ instance: Instance) throws -> PulseServer {
        let runtime = instance.runtimeDirectory(in: AudioTestEnvironment.directory)
        try? FileManager.default.removeItem(at: runtime)
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pulseaudio")
        process.arguments = [
            "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
            "--load=module-native-protocol-unix auth-anonymous=1",
            "--load=module-null-sink sink_name=null",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["HOME"] = runtime.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let log = runtime.appendingPathComponent("pulseaudio.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let server = PulseServer(process: process, runtimeDirectory: runtime)
        let socket = runtime.appendingPathComponent("pulse/native").path
        let deadline = Date().addingTimeInterval(15)
        while !FileManager.default.fileExists(atPath: socket) {
            guard process.isRunning, Date() < deadline else {
                server.stop()
                throw PulseServerError(log: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
            }
            usleep(50_000)
        }
        usleep(200_000)  // the socket file appears just before the server listens
        return server
    }

    /// Terminates the server and waits for it.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    deinit { stop() }
}

struct PulseServerError: Error, CustomStringConvertible {
    var log: String
    var description: String { "PulseAudio did not start: \(log)" }
}
