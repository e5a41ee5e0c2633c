public import Logging
public import ServiceLifecycle

/// Keeps systemd's watchdog (`WatchdogSec=`) fed while the daemon makes progress.
///
/// Every half interval it asks the health probe what is stuck (the session loop, recorder
/// threads, …). It sends `WATCHDOG=1` only when the answer is empty; otherwise it logs what is
/// stuck and stays silent, so systemd kills and restarts the daemon after `WatchdogSec`
/// (`Restart=on-failure`), and the restarted daemon recovers the interrupted run.
///
/// Put it first in the `ServiceGroup`: services shut down in reverse order, so the watchdog
/// keeps pinging while the others stop recorders and save the run.
public struct WatchdogService: Service {
    /// Returns the names of what is stuck; empty when everything makes progress.
    public typealias HealthProbe = @Sendable () -> [String]

    /// The interval systemd expects pings within (`WATCHDOG_USEC`).
    public let interval: Duration
    private let notifier: SystemdNotifier
    private let probe: HealthProbe
    private let logger: Logger

    /// A watchdog that expects a ping every `interval` and asks `probe` before each one.
    public init(interval: Duration, notifier: SystemdNotifier = SystemdNotifier(), logger: Logger, probe: @escaping HealthProbe) {
        self.interval = interval
        self.notifier = notifier
        self.probe = probe
        self.logger = logger
    }

    /// The watchdog systemd asked for through WATCHDOG_USEC and WATCHDOG_PID, or nil when the
    /// watchdog is off (not under systemd, no `WatchdogSec=`, or meant for another process).
    public static func fromEnvironment(
        notifier: SystemdNotifier = SystemdNotifier(), logger: Logger, probe: @escaping HealthProbe
    ) throws(SystemdError) -> WatchdogService? {
        guard let microseconds = try LibSystemd.watchdogInterval(), microseconds > 0 else { return nil }
        return WatchdogService(interval: .microseconds(Int64(clamping: microseconds)), notifier: notifier, logger: logger, probe: probe)
    }

    /// How often the probe is asked: half the interval, as sd_watchdog_enabled(3) recommends.
    public var pingInterval: Duration { interval / 2 }

    public func run() async throws {
        logger.info("Watchdog armed", metadata: ["interval": "\(interval)"])
        // Graceful shutdown or cancellation ends the loop; either is a normal stop, not an error
        // (a throwing service would make the ServiceGroup report a failure).
        await cancelWhenGracefulShutdown {
            var health = WatchdogHealth()
            while !Task.isCancelled {
                tick(&health)
                try? await Task.sleep(for: pingInterval)
            }
        }
    }

    private func tick(_ health: inout WatchdogHealth) {
        switch health.evaluate(stuck: probe()) {
        case .ping:
            ping()
        case .pingAfterRecovery(let previouslyStuck):
            logger.notice("Everything makes progress again; watchdog pings resume", metadata: ["wasStuck": "\(previouslyStuck.joined(separator: ", "))"])
            ping()
        case .withhold(let stuck, let changed):
            if changed {
                logger.error(
                    "Not pinging the watchdog: \(stuck.joined(separator: ", ")) made no progress; systemd restarts the daemon unless it recovers within \(interval)",
                    metadata: ["stuck": .array(stuck.map { .string($0) })]
                )
            }
        }
    }

    private func ping() {
        do {
            try notifier.watchdog()
        } catch {
            logger.warning("Could not ping the watchdog", metadata: ["error": "\(error)"])
        }
    }
}
