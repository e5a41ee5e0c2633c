import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// Restarts the daemon into a newly installed version without cutting a recording
/// (docs/install.md, "Upgrades"): on SIGUSR2 the host takes no new run, a run under way records
/// to its end, and then this service ends, which shuts the group down; the process exits with
/// `exitStatus`, which the unit's `RestartForceExitStatus=` has systemd start again from the
/// binary now installed. The packages' restart-when-idle script sends the signal.
final class RestartWhenIdle: Service, Sendable {
    /// EX_TEMPFAIL: "try again", as a restart is.
    static let exitStatus: Int32 = 75

    let host: DaemonHost
    /// Set once the restart goes ahead, for `DaemonMain` to exit with `exitStatus`.
    let requested = Mutex(false)
    let logger: Logger

    init(host: DaemonHost, logger: Logger) {
        self.host = host
        self.logger = logger
    }

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sigusr2).cancelOnGracefulShutdown() {
            logger.notice("Asked to restart into the installed version: no run starts from now; one under way records to its end")
            guard await host.closeForRestart() else { return }
            logger.notice("No run records: restarting into the installed version")
            requested.withLock { $0 = true }
            return
        }
    }
}
