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
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let server = PulseServer(process: process, runtimeDirectory: runtime)
        let socket = runtime.appendingPathComponent("pulse/native").path
        let deadline = Date().addingTimeInterval(15)
        while !FileManager.default.fileExists(atPath: socket) {
            guard !server.hasExited, Date() < deadline else {
                server.stop()
                throw PulseServerError(log: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
            }
            usleep(50_000)
        }
        usleep(200_000)  // the socket file appears just before the server listens
        return server
    }

    /// Terminates the server (SIGTERM, then SIGKILL after 3 s) and waits for it.
    func stop() {
        guard !hasExited else { return }
        kill(process.processIdentifier, SIGTERM)
        waitForExit(escalatingAfter: 3)
    }

    /// Kills the server at once, as a crash or an unplugged device would end it.
    func crash() {
        guard !hasExited else { return }
        kill(process.processIdentifier, SIGKILL)
        waitForExit(escalatingAfter: 3)
    }

    /// Whether the server has exited: gone or a zombie. Foundation reaps children one at a time,
    /// so `isRunning` can stay true for a dead process while another child is waited on.
    private var hasExited: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(close, offsetBy: 2)] == "Z"
    }

    /// Polls rather than `waitUntilExit()`, which spins a run loop on non-main threads.
    private func waitForExit(escalatingAfter seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while !hasExited {
            if Date() > deadline { kill(process.processIdentifier, SIGKILL) }
            usleep(20_000)
        }
    }

    deinit { stop() }
}

struct PulseServerError: Error, CustomStringConvertible {
    var log: String
    var description: String { "PulseAudio did not start: \(log)" }
}
