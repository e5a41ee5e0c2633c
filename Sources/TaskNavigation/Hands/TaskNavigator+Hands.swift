public import TaskModel

extension TaskNavigator {
    /// The hand order the `handSelection` step recorded; sections named after a hand then run
    /// as MotorControl runs them (`HandOrder`). Nil: every section runs in order.
    public var handOrder: [Hand]? {
        get { forward.handOrder }
        set { forward.handOrder = newValue }
    }

    /// The identifiers of the sections and subtasks shown so far.
    var sectionsShown: Set<String> {
        var identifiers: Set<String> = []
        for location in history {
            for container in location.ancestors.dropFirst() {
                if let step = task.step(at: container) { identifiers.insert(step.identifier) }
            }
        }
        return identifiers
    }

    /// The hand the texts of the step at `location` name (MotorControl's `whichHand()`): the
    /// hand of its section, else the next hand to run; nil when no hand is known.
    public func hand(at location: StepLocation) -> Hand? {
        let section = location.parent.flatMap { $0.indexPath.isEmpty ? nil : task.step(at: $0)?.identifier }
        return HandOrder.hand(sectionIdentifier: section, order: handOrder, sectionsWithResults: sectionsShown)
    }

    /// `text` of the step at `location` with its `%@` filled in (`HandText`).
    public func handText(_ text: String, at location: StepLocation) -> String {
        text.contains("%@") ? HandText.format(text, hand: hand(at: location)) : text
    }
}
