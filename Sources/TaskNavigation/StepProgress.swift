public import TaskModel

/// "Step 3 of 7" for the current step, as SageResearch's ordered navigator computes it: from
/// the container's `progressMarkers` when given, else estimated from its steps and history.
/// Inside a section whose own answer is missing or estimated, the section step's progress in
/// the level around it is asked instead, up to the task, as SageResearch's step view model does
/// (docs/session.md, "Progress").
public struct StepProgress: Sendable, Hashable, Codable {
    public var current: Int
    public var total: Int
    /// True when estimated (no progress markers).
    public var isEstimated: Bool

    public init(current: Int, total: Int, isEstimated: Bool) {
        self.current = current
        self.total = total
        self.isEstimated = isEstimated
    }

    /// The progress of the step at `location`, given the steps shown so far: the answer of its
    /// own level, or, while that is nil or estimated, the answer of the level around it for the
    /// section holding it; nil when no level says anything about it.
    public static func progress(of location: StepLocation, history: [StepLocation], in task: TaskDefinition) -> StepProgress? {
        var answer = levelProgress(of: location, history: history, in: task)
        var level = location
        while answer == nil || answer?.isEstimated == true, let section = level.parent, section.parent != nil {
            answer = levelProgress(of: section, history: history, in: task)
            level = section
        }
        return answer
    }

    /// The progress of the step at `location` among its siblings alone (SageResearch's
    /// navigator `progress(for:with:)`): nil past the last marker or with no marker shown yet.
    public static func levelProgress(of location: StepLocation, history: [StepLocation], in task: TaskDefinition) -> StepProgress? {
        guard let parent = location.parent, let container = task.container(at: parent),
              let step = task.step(at: location) else { return nil }
        let depth = parent.indexPath.count
        // The identifiers shown so far among this container's children.
        let shown = history.compactMap { entry -> String? in
            guard entry.isWithin(parent), entry.indexPath.count > depth else { return nil }
            return container.steps[entry.indexPath[depth]].identifier
        }
        if let markers = container.progressMarkers {
            let list = shown + [step.identifier]
            guard let index = markers.lastIndex(where: { list.contains($0) }) else { return nil }
            let current = index + 1
            if current == markers.count, !markers.contains(step.identifier) { return nil }
            return StepProgress(current: current, total: markers.count, isEstimated: false)
        }
        let shownSet = Set(shown)
        let total = Set(container.steps.map(\.identifier)).union(shownSet).count
        let current = shownSet.subtracting([step.identifier]).count
        return StepProgress(current: current + 1, total: total, isEstimated: true)
    }
}
