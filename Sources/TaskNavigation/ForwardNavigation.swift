public import TaskModel

/// SageResearch's ordered/conditional navigation as a pure function: where going forward
/// from a step leads.
///
/// From a step: the result's `skipToIdentifier` wins, then the step's `nextStepIdentifier`,
/// then its `afterCohortRules` (a match without a target leaves the enclosing section), else
/// the next step in order. `exit` ends the task, `nextSection` leaves the section, `nextStep`
/// goes on in order. A target is looked up among the steps of the current section, then of the
/// sections and task around it. Entering a step applies its `beforeCohortRules` (a match without
/// a target skips it) and, outside full-instructions mode, skips `fullInstructionsOnly` steps;
/// entering a section enters its first step; leaving the last step of a section continues after
/// the section (with the section's own `nextStepIdentifier` and after-rules). Sections named
/// after a hand follow MotorControl's rules once a hand order is recorded (`HandOrder`).
public struct ForwardNavigation: Sendable {
    public var task: TaskDefinition
    public var cohorts: Set<String>
    public var showsFullInstructions: Bool
    /// The hand order recorded by the `handSelection` step; nil until then (every hand section runs).
    public var handOrder: [Hand]?
    /// The identifiers of the sections shown so far, which MotorControl's hand rules read as
    /// "has a result" (`HandOrder`).
    public var sectionsWithResults: Set<String> = []

    /// Moves tried before concluding that skip rules loop.
    private var hopLimit: Int { 4 * (task.allLocations().count + 4) }

    public init(task: TaskDefinition, cohorts: Set<String> = [], showsFullInstructions: Bool = true) {
        self.task = task
        self.cohorts = cohorts
        self.showsFullInstructions = showsFullInstructions
    }

    /// The first step shown; nil when the task shows no step at all.
    public func firstStep() throws(NavigationError) -> StepLocation? {
        var hops = 0
        return try moveOn(in: .root, after: nil, target: nil, hops: &hops)
    }

    /// Where going forward from the step at `location` leads, with `skipToIdentifier` from the
    /// step's result; nil when the task ends.
    public func step(after location: StepLocation, skipToIdentifier: String? = nil) throws(NavigationError) -> StepLocation? {
        guard let step = task.step(at: location), let parent = location.parent else { throw .notRunning }
        let target = skipToIdentifier ?? step.nextStepIdentifier ?? afterRuleTarget(step)
        var hops = 0
        return try moveOn(in: parent, after: location.indexPath.last, target: target, hops: &hops)
    }

    private func afterRuleTarget(_ step: Step) -> String? {
        guard let rule = step.afterCohortRules.first(where: { $0.matches(cohorts) }) else { return nil }
        return rule.skipToIdentifier ?? "nextSection"
    }

    /// Continues in the container at `container` after its child `index` toward `target`.
    private func moveOn(in container: StepLocation, after index: Int?, target: String?, hops: inout Int) throws(NavigationError) -> StepLocation? {
        hops += 1
        if hops > hopLimit { throw .loop(target ?? task.stepPath(of: container)) }
        switch target {
        case "exit":
            return nil
        case "nextSection":
            return try exit(container, hops: &hops)
        case nil, "nextStep":
            let next = (index ?? -1) + 1
            guard let steps = task.container(at: container)?.steps, next < steps.count else {
                return try exit(container, hops: &hops)
            }
            return try enter(container.appending(next), hops: &hops)
        case let identifier?:
            guard let found = locate(identifier, from: container) else { throw .unknownStep(identifier) }
            return try enter(found, hops: &hops)
        }
    }

    /// The step named `identifier` among the children of `container`, then of its ancestors.
    func locate(_ identifier: String, from container: StepLocation) -> StepLocation? {
        var current: StepLocation? = container
        while let location = current {
            if let index = task.container(at: location)?.index(of: identifier) {
                return location.appending(index)
            }
            current = location.parent
        }
        return nil
    }

    private func exit(_ container: StepLocation, hops: inout Int) throws(NavigationError) -> StepLocation? {
        guard let parent = container.parent, let section = task.step(at: container) else { return nil }
        let target = section.nextStepIdentifier
            ?? HandOrder.target(after: section.identifier, order: handOrder, sectionsWithResults: sectionsWithResults)
            ?? afterRuleTarget(section)
        return try moveOn(in: parent, after: container.indexPath.last, target: target, hops: &hops)
    }

    private func enter(_ location: StepLocation, hops: inout Int) throws(NavigationError) -> StepLocation? {
        guard let step = task.step(at: location), let parent = location.parent else { return nil }
        if let rule = step.beforeCohortRules.first(where: { $0.matches(cohorts) }) {
            return try moveOn(in: parent, after: location.indexPath.last, target: rule.skipToIdentifier ?? "nextStep", hops: &hops)
        }
        if step.fullInstructionsOnly && !showsFullInstructions {
            return try moveOn(in: parent, after: location.indexPath.last, target: step.nextStepIdentifier, hops: &hops)
        }
        if step.container != nil, HandOrder.skipsSection(step.identifier, order: handOrder, sectionsWithResults: sectionsWithResults) {
            return try moveOn(in: parent, after: location.indexPath.last, target: nil, hops: &hops)
        }
        if let contents = step.container {
            if contents.steps.isEmpty { return try exit(location, hops: &hops) }
            return try enter(location.appending(0), hops: &hops)
        }
        return location
    }
}
