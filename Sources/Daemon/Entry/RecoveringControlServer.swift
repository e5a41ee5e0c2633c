import ControlServer
import Logging
import ServiceLifecycle
import Synchronization
import Systemd

/// Recovers the runs an earlier daemon left interrupted (docs/runs.md, "Recovery"), then serves
/// the control socket. It runs inside the service group, so that a SIGTERM that comes while the
/// runs are being repaired ends the daemon gracefully (the group already takes the signal): the
/// run being recovered is finished (files are never left half-repaired), the socket is not opened,
/// and the daemon exits 0; the runs not yet recovered are recovered at the next start. Before,
/// recovery ran ahead of the group and such a SIGTERM killed the daemon (exit 143).
struct RecoveringControlServer: Service {
    let host: DaemonHost
    let server: ControlServer
    let notifier: SystemdNotifier
    /// Whether systemd's watchdog supervises the daemon (for the metrics).
    let watchdog: Bool
    let logger: Logger

    func run() async throws {
        _ = try? notifier.status(.recovering(runs: await host.interruptedRunCount()))
        // Asked between runs: a stop ends recovery after the run under way (the rest are
        // recovered at the next start), well within systemd's TimeoutStopSec.
        let stopping = Mutex(false)
        let recovered = await withGracefulShutdownHandler {
            await host.recoverInterruptedRuns(shouldStop: { stopping.withLock { $0 } })
        } onGracefulShutdown: {
            stopping.withLock { $0 = true }
        }
        if recovered > 0 { logger.notice("Recovered interrupted runs", metadata: ["count": "\(recovered)"]) }
        guard !Task.isShuttingDownGracefully else {
            logger.info("Stopping before the control socket opens: asked to stop during recovery")
            return
        }
        await host.markReady(watchdog: watchdog)
        try await server.run()
    }
}
