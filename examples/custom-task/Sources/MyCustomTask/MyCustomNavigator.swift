public import TaskNavigation

/// The guide's `MyCustomNavigator`: a conditional step navigator that carries the task's
/// `value` and has no progress markers. As in the guide it adds no navigation rule of its own:
/// every move is the conditional navigator's (`StepNavigator`'s defaults), and progress is
/// always estimated from the steps, whatever `progressMarkers` the task gives. A navigator
/// that used `value` would implement `step(after:skipToIdentifier:in:)` (docs/custom-tasks.md).
public struct MyCustomNavigator: StepNavigator {
    public let value: Int

    public init(value: Int) {
        self.value = value
    }

    /// The guide's `progressMarkers { nil }`.
    public func progressMarkers(in context: NavigationContext) -> [String]? { nil }
}
