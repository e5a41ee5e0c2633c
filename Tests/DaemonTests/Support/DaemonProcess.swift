import Foundation
import Glibc
import TestSupport

/// A running `activetaskd` (or a launcher that execs it, such as `systemd-socket-activate`),
/// spawned with posix_spawn and reaped here with waitpid: Foundation's `Process` reaps its
/// children one blocking wait at a time, which a long-lived daemon would hold up for the CLI runs
/// the tests make meanwhile. Only this child is ever signalled; `deinit` kills it if a test left
/// it running.
final class DaemonProcess: @unchecked Sendable {
    /// How the child ended.
    enum Termination: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signalled(let signal): "signal \(signal)"
            }
        }
    }

    let pid: pid_t
    /// Standard output and standard error of the child, together.
    let log: URL
    private let lock = NSLock()
    private var termination: Termination?

    private init(pid: pid_t, log: URL) {
        self.pid = pid
        self.log = log
    }

    /// Spawns `arguments[0]` with `arguments` and exactly `environment`, standard input from
    /// /dev/null and both outputs into `log`.
    static func spawn(_ arguments: [String], environment: [String: String], log: URL) throws -> DaemonProcess {
        let pid = try ChildSpawn.spawn(arguments, environment: environment, standardOutput: log.path, standardError: nil)
        return DaemonProcess(pid: pid, log: log)
    }

    /// What the child printed so far.
    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// How the child ended, or nil while it runs (reaping it if it ended).
    var ended: Termination? {
        lock.lock()
        defer { lock.unlock() }
        if let termination { return termination }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        let signal = status & 0x7f
        termination = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        return termination
    }

    /// Sends `signal` to the child unless it already ended.
    func send(_ signal: Int32) {
        if ended == nil { kill(pid, signal) }
    }

    /// How long a test waits for a process it stopped to exit before it calls that a hang: only a
    /// guard, never the point of a test (each returns as soon as the process exits). A daemon
    /// ends its run, writes its files and syncs them before it exits; in the full test run, with
    /// hundreds of tests writing and syncing beside it, that once took more than 15 s (2026-11-29).
    static let exitBound: Double = 60 * TestTiming.scale

    /// Waits at most `seconds` for the child to end; nil when it still runs.
    func waitForExit(within seconds: Double) async -> Termination? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let ended { return ended }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return ended
    }

    deinit {
        if ended == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }
}

/// A test precondition that failed, in a sentence.
struct DaemonTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
