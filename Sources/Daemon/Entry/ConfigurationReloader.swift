import DaemonConfig
import Logging
import ServiceLifecycle
import TaskModel
import UnixSignals

/// Reads the configuration again on SIGHUP: what can change without a restart applies from the
/// next run on; what cannot (socket, data directory) is logged as needing one.
struct ConfigurationReloader: Service {
    var loader: DaemonConfigurationLoader
    var current: DaemonConfiguration
    var registry: TypeRegistry
    var host: DaemonHost
    var logger: Logger

    func run() async throws {
        var current = current
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            do {
                let reload = try await loader.reload(replacing: current)
                current = reload.configuration
                await host.update(try DaemonMain.settings(from: current, registry: registry, logger: logger))
                logger.notice("Configuration reloaded", metadata: ["summary": "\(reload.summary)"])
            } catch {
                logger.error("The configuration was not reloaded; the daemon keeps the one it has", metadata: ["error": "\(error)"])
            }
        }
    }
}
