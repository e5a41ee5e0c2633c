import Foundation
import Glibc
import TestSupport

/// One test's daemon set-up: a short scratch directory (socket paths must fit in 108 bytes), a
/// PulseAudio server of its own whose null sink and monitor are the daemon's paced ALSA playback
/// and capture PCMs (`daemon_play`, `daemon_cap`), and the data directory. `start` runs the real
/// built `activetaskd` on it.
final class DaemonFixture: @unchecked Sendable {
    let directory: URL
    let socket: String
    let dataDirectory: URL
    private let pulse: PulseServer
    private let alsaConfig: URL

    init(_ name: String) async throws {
        directory = URL(fileURLWithPath: "/tmp/atd-\(name.prefix(12))-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("xdg"), withIntermediateDirectories: true)
        socket = directory.appendingPathComponent("control.sock").path
        dataDirectory = directory.appendingPathComponent("data")
        pulse = try await PulseServer.start(runtimeDirectory: directory.appendingPathComponent("pulse"))
        let native = pulse.runtimeDirectory.appendingPathComponent("pulse/native").path
        alsaConfig = directory.appendingPathComponent("alsa.conf")
        try """
        pcm.daemon_cap { type pulse server "unix:\(native)" device "null.monitor" }
        pcm.daemon_play { type pulse server "unix:\(native)" device "null" }

        """.write(to: alsaConfig, atomically: true, encoding: .utf8)
    }

    /// Adds ALSA configuration (PCM definitions) that the daemons started from now on read.
    func addALSAConfiguration(_ text: String) throws {
        let handle = try FileHandle(forWritingTo: alsaConfig)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    deinit {
        thawSound()
        pulse.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Freezes this fixture's sound server (SIGSTOP): the daemon's capture thread then blocks in
    /// its read, as it would on a hung driver. No fault hook in the daemon is needed.
    func freezeSound() { kill(pulse.pid, SIGSTOP) }

    /// Lets a frozen sound server go on (SIGCONT).
    func thawSound() { kill(pulse.pid, SIGCONT) }

    /// The built daemon.
    static var executable: String {
        PackagePaths.builtExecutable(named: "activetaskd")?.path ?? "activetaskd-not-built"
    }

    /// Where the daemon writes `activetaskd.prom`: it exists only once a test creates it, so
    /// the others write no metrics, and none ever go to the host's node_exporter directory,
    /// the default (docs/fleet.md).
    var metricsDirectory: URL { directory.appendingPathComponent("metrics") }

    /// The daemon's arguments on this fixture's socket, data directory, devices and metrics
    /// directory.
    func arguments(iioURI: String = "sim:walking") -> [String] {
        [Self.executable, "--socket", socket, "--data-dir", dataDirectory.path, "--iio-uri", iioURI,
         "--capture-device", "daemon_cap", "--playback-device", "daemon_play",
         "--metrics-directory", metricsDirectory.path]
    }

    /// This process's environment without anything systemd would pass, plus the fixture's ALSA
    /// configuration and runtime directory, plus `extra`.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
                     "JOURNAL_STREAM", "INVOCATION_ID"] {
            environment[name] = nil
        }
        environment = environment.filter { !$0.key.hasPrefix("ACTIVETASK_") }
        environment["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:\(alsaConfig.path)"
        environment["XDG_RUNTIME_DIR"] = directory.appendingPathComponent("xdg").path
        environment["HOME"] = directory.path
        environment.merge(extra) { $1 }
        return environment
    }

    /// Starts `command` (by default the daemon with `arguments()`), logging to `daemon-N.log`.
    func spawn(_ command: [String]? = nil, environment extra: [String: String] = [:]) throws -> DaemonProcess {
        let log = directory.appendingPathComponent("daemon-\(UUID().uuidString.prefix(4)).log")
        return try DaemonProcess.spawn(command ?? arguments(), environment: environment(extra), log: log)
    }

    /// Starts the daemon and waits (at most 20 s) until its socket accepts connections.
    func start(_ command: [String]? = nil, environment extra: [String: String] = [:]) async throws -> DaemonProcess {
        let daemon = try spawn(command, environment: extra)
        try await waitUntilListening(daemon)
        return daemon
    }

    /// Waits until the socket accepts a connection; throws with the daemon's output when it ends
    /// first or 20 s pass.
    func waitUntilListening(_ daemon: DaemonProcess, within seconds: Double = 20) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        // Checked once more after the deadline: a sleep can overrun it when every thread of the
        // concurrency pool is busy (the whole suite under a sanitizer).
        while true {
            if let ended = daemon.ended {
                throw DaemonTestFailure("activetaskd ended (\(ended)) before listening:\n\(daemon.output)")
            }
            if Self.accepts(socket) { return }
            if Date() >= deadline { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw DaemonTestFailure("activetaskd did not listen on \(socket) within \(seconds) s:\n\(daemon.output)")
    }

    /// Whether a connection to `path` succeeds now.
    static func accepts(_ path: String) -> Bool {
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(descriptor) }
        return withUnixSocketAddress(path) { connect(descriptor, $0, $1) } == 0
    }

    /// Starts the daemon under a NOTIFY_SOCKET at `notify` with a watchdog of `watchdogSeconds`
    /// (not waiting for it to listen). WATCHDOG_PID must be the daemon's own pid: a shell exports
    /// its pid and execs the daemon.
    func spawnWatched(notify: NotifySocket, watchdogSeconds: Int) throws -> DaemonProcess {
        try spawn(["/bin/sh", "-c", "export WATCHDOG_PID=$$; exec \"$@\"", "sh"] + arguments(),
                  environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "\(watchdogSeconds * 1_000_000)"])
    }

    /// A connection subscribed to events of `kinds`, for a test to wait on.
    func subscriber(to kinds: [String]) throws -> LineClient {
        let client = try LineClient(path: socket, timeout: 20)
        _ = try client.result("events.subscribe", ["kinds": kinds])
        return client
    }

    /// Writes `json` as `name.json` in the scratch directory and returns its path.
    func write(task json: String, name: String) throws -> String {
        let url = directory.appendingPathComponent("\(name).json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// `activetaskctl --socket <this socket> arguments…`.
    func ctl(_ arguments: String...) async throws -> CommandRunner.Output {
        try await CommandRunner.run(["--socket", socket] + arguments)
    }
}
