public import TaskModel
public import TaskNavigation

/// A custom task type as docs/custom-tasks.md builds one, shared by the navigation, session and
/// daemon tests: it decodes `value` (0 when absent, refused below 0) and its navigator skips the
/// step `b` when `value` is above 3 and shows no progress markers.
public struct ThresholdTask: StepNavigatorProviding {
    /// The decoded threshold.
    public var value: Int

    private enum CodingKeys: String, CodingKey { case value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decodeIfPresent(Int.self, forKey: .value) ?? 0
        guard value >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .value, in: container, debugDescription: "value is \(value); give 0 or more")
        }
    }

    public func stepNavigator(for task: TaskDefinition) -> any StepNavigator { Navigator(value: value) }

    /// The conditional navigation, without `b` when `value` > 3 and without progress markers.
    public struct Navigator: StepNavigator {
        /// The task's threshold.
        public var value: Int

        public init(value: Int) { self.value = value }

        public func step(after location: StepLocation, skipToIdentifier: String?, in context: NavigationContext) throws(NavigationError) -> StepLocation? {
            let next = try context.conditional.step(after: location, skipToIdentifier: skipToIdentifier)
            guard value > 3, let next, context.task.step(at: next)?.identifier == "b" else { return next }
            return try context.conditional.step(after: next, skipToIdentifier: nil)
        }

        public func progressMarkers(in context: NavigationContext) -> [String]? { nil }
    }
}
