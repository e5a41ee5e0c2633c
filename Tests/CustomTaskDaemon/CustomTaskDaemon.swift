import Daemon
import Logging
import TaskModel
import ThresholdTask

/// An embedder's daemon as docs/custom-tasks.md builds it: `activetaskd` through the Daemon
/// library's one call, with a custom task type registered. DaemonTests' `CustomTaskDaemonTests`
/// run it over its socket.
@main
enum CustomTaskDaemon {
    static func main() async {
        var registry = TypeRegistry()
        registry.registerTaskType("thresholdTask", ThresholdTask.self)
        LoggingSystem.bootstrap(ActiveTaskDaemon.logHandlerFactory())
        await ActiveTaskDaemon.run(registry: registry)
    }
}
