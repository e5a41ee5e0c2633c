public import TaskModel

extension TaskDefinition {
    /// The step at `location`; nil for the root or a location outside the task.
    public func step(at location: StepLocation) -> Step? {
        var container = self.container
        var found: Step?
        for index in location.indexPath {
            guard container.steps.indices.contains(index) else { return nil }
            let step = container.steps[index]
            found = step
            guard let inner = step.container else {
                return index == location.indexPath.last ? step : nil
            }
            container = inner
        }
        return found
    }

    /// The container at `location`: the task's for the root, a section's or subtask's otherwise.
    public func container(at location: StepLocation) -> StepContainer? {
        if location.indexPath.isEmpty { return container }
        return step(at: location)?.container
    }

    /// The identifiers from the task down to `location`.
    public func identifiers(along location: StepLocation) -> [String] {
        var result = [identifier]
        for depth in location.indexPath.indices.map({ $0 + 1 }) {
            if let step = step(at: StepLocation(Array(location.indexPath.prefix(depth)))) {
                result.append(step.identifier)
            }
        }
        return result
    }

    /// The step path of `location` (`WalkAndBalance/walk/motion`); the task identifier for the root.
    public func stepPath(of location: StepLocation) -> String {
        StepPath.string(identifiers(along: location))
    }

    /// Every leaf and container location in document order.
    public func allLocations() -> [StepLocation] {
        var result: [StepLocation] = []
        func visit(_ container: StepContainer, _ location: StepLocation) {
            for (index, step) in container.steps.enumerated() {
                let here = location.appending(index)
                result.append(here)
                if let inner = step.container { visit(inner, here) }
            }
        }
        visit(container, .root)
        return result
    }
}
