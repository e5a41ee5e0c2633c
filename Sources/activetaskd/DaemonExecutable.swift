import Daemon
import Logging

/// `activetaskd`: the recording daemon (docs/service.md), the library's entry point with the
/// built-in types. An embedder's daemon is the same call with its own registry
/// (docs/custom-tasks.md).
@main
enum DaemonExecutable {
    static func main() async {
        LoggingSystem.bootstrap(ActiveTaskDaemon.logHandlerFactory())
        await ActiveTaskDaemon.run(registry: .standard)
    }
}
