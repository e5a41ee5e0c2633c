import Daemon
import TaskModel
import TaskNavigation

/// An embedder's daemon as docs/custom-tasks.md builds it: `activetaskd` through the Daemon
/// library's one call, with a custom task type registered. DaemonTests' `CustomTaskDaemonTests`
/// run it over its socket.
@main
enum CustomTaskDaemon {
    static func main() async {
        var registry = TypeRegistry()
        registry.registerTaskType("thresholdTask", ThresholdTask.self)
        await ActiveTaskDaemon.run(registry: registry)
    }
}

/// A custom task type that decodes `value` (0 when absent) and skips the step `b` when it is
/// above 3, with no progress markers.
struct ThresholdTask: StepNavigatorProviding {
    var value: Int

    private enum CodingKeys: String, CodingKey { case value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decodeIfPresent(Int.self, forKey: .value) ?? 0
        guard value >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .value, in: container, debugDescription: "value is \(value); give 0 or more")
        }
    }

    func stepNavigator(for task: TaskDefinition) -> any StepNavigator { Navigator(value: value) }

    struct Navigator: StepNavigator {
        var value: Int

        func step(after location: StepLocation, skipToIdentifier: String?, in context: NavigationContext) throws(NavigationError) -> StepLocation? {
            let next = try context.conditional.step(after: location, skipToIdentifier: skipToIdentifier)
            guard value > 3, let next, context.task.step(at: next)?.identifier == "b" else { return next }
            return try context.conditional.step(after: next, skipToIdentifier: nil)
        }

        func progressMarkers(in context: NavigationContext) -> [String]? { nil }
    }
}
