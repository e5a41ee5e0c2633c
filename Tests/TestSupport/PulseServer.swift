public import Foundation
import Glibc

/// A PulseAudio server with one null sink, started by a test in its own runtime directory and
/// ended by it (only this process is ever signalled).
///
/// Spawned with posix_spawn and reaped with waitpid here, not with Foundation's `Process`:
/// Foundation waits for its children one blocking wait at a time, so a long-lived server started
/// through it would keep other subprocesses (the CLI tests) from ever being reaped.
public final class PulseServer: @unchecked Sendable {
    public let pid: pid_t
    /// Holds `pulse/native`, the socket clients connect to (`unix:<dir>/pulse/native`).
    public let runtimeDirectory: URL
    private var reaped = false

    private init(pid: pid_t, runtimeDirectory: URL) {
        self.pid = pid
        self.runtimeDirectory = runtimeDirectory
    }

    /// Starts a server whose runtime directory is `runtime` and waits until its socket
    /// accepts connections.
    ///
    /// With `sharedMemory` false the server sends audio inside its socket messages instead of
    /// shared-memory fragments. A test that kills the server and needs the client to see an
    /// error every time turns it off: with shared memory, libpulse deadlocks when its server dies
    /// while the ALSA plugin holds part of a fragment (docs/audio.md).
    /// The wait (up to seconds on a loaded machine) is on a thread of its own, never on one of
    /// the few concurrency threads the tests running beside this one need.
    /// `sink` is the sink module and its arguments; without one the server has a **settled**
    /// null sink named `null` (`settledNullSink`).
    public static func start(runtimeDirectory runtime: URL, sharedMemory: Bool = true, sink: [String] = settledNullSink) async throws -> PulseServer {
        try await onOwnThread { try startBlocking(runtimeDirectory: runtime, sharedMemory: sharedMemory, sink: sink) }
    }

    /// A null sink named `null` that is settled from the start, as a sound card that has been
    /// running is: a fresh null sink renders its first block at 2 s of latency and keeps that
    /// block going when a stream connects, so whatever is played in a server's first seconds
    /// would be heard up to 2 s late (docs/benchmarks.md, "Voice prompt onsets"). A loopback of
    /// 20 ms from a silent source keeps a low-latency stream on the sink, and suspending and
    /// resuming the sink once ends the first long block (docs/audio.md, "Testing without
    /// hardware"). About 1.6 % of a core per server; the monitor hears digital silence as before.
    public static let settledNullSink = [
        "load-module module-null-sink sink_name=null",
        "load-module module-null-source source_name=quiet",
        "load-module module-loopback source=quiet sink=null latency_msec=20 source_dont_move=true sink_dont_move=true",
        "suspend-sink null 1",
        "suspend-sink null 0",
    ]

    /// A plain null sink named `null`, unsettled (see `settledNullSink`).
    public static let nullSink = ["load-module module-null-sink sink_name=null"]

    /// `start` on the calling thread, for code that is not async.
    public static func startBlocking(runtimeDirectory runtime: URL, sharedMemory: Bool = true, sink: [String] = settledNullSink) throws -> PulseServer {
        try? FileManager.default.removeItem(at: runtime)
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let log = runtime.appendingPathComponent("pulseaudio.log")
        // A start-up script rather than --load: it can suspend and resume the sink after loading.
        let script = runtime.appendingPathComponent("server.pa")
        try (["load-module module-native-protocol-unix auth-anonymous=1"] + sink).joined(separator: "\n").appending("\n")
            .write(to: script, atomically: true, encoding: .utf8)
        let arguments = [
            "/usr/bin/pulseaudio", "-n", "-F", script.path, "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
        ] + (sharedMemory ? [] : ["--disable-shm=yes"])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["HOME"] = runtime.path
        let pid: pid_t
        do {
            pid = try ChildSpawn.spawn(arguments, environment: environment, standardOutput: "/dev/null", standardError: log.path)
        } catch {
            throw PulseServerError(log: "\(error)")
        }
        let server = PulseServer(pid: pid, runtimeDirectory: runtime)
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

    /// Whether the server has exited (reaping it if so).
    private var hasExited: Bool {
        if reaped { return true }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid || result < 0 { reaped = true }
        return reaped
    }

    /// Terminates the server (SIGTERM, then SIGKILL after 3 s) and reaps it.
    public func stop() {
        guard !hasExited else { return }
        kill(pid, SIGCONT)
        kill(pid, SIGTERM)
        waitForExit(escalatingAfter: 3)
    }

    /// Kills the server at once, as a crash or an unplugged device would end it.
    public func crash() {
        guard !hasExited else { return }
        kill(pid, SIGKILL)
        waitForExit(escalatingAfter: 3)
    }

    /// Stops the server without ending it (SIGSTOP): its clients' connections stay open and
    /// nothing arrives on them, as with a hung server.
    public func pause() {
        guard !hasExited else { return }
        kill(pid, SIGSTOP)
    }

    /// Lets a paused server run again (SIGCONT).
    public func resume() {
        guard !hasExited else { return }
        kill(pid, SIGCONT)
    }

    private func waitForExit(escalatingAfter seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while !hasExited {
            if Date() > deadline { kill(pid, SIGKILL) }
            usleep(20_000)
        }
    }

    deinit { stop() }
}

public struct PulseServerError: Error, CustomStringConvertible {
    public var log: String
    public var description: String { "PulseAudio did not start: \(log)" }
}
