public import TaskModel

/// When async actions start and stop (docs/task-format.md, async action start/stop), as pure functions of a move.
///
/// Start: a configuration with `startStepIdentifier` starts when that step (or section) of
/// its owner is entered; one without starts when its owner (task or section) is entered.
/// Stop: when the step (or section) named by `stopStepIdentifier` ends, else when the owner ends.
public enum AsyncActionRules {
    /// The actions whose owner (task or section) is entered by moving from `previous` to
    /// `entered`: their controllers are created and ask for permission now, before they start.
    public static func actionsToPrepare(entering entered: StepLocation, from previous: StepLocation?,
                                        in task: TaskDefinition) -> [AsyncActionReference] {
        entered.ancestors.flatMap { owner -> [AsyncActionReference] in
            guard previous.map({ !$0.isWithin(owner) }) ?? true else { return [] }
            return (task.container(at: owner)?.asyncActions ?? []).map {
                AsyncActionReference(owner: task.stepPath(of: owner), ownerLocation: owner, configuration: $0)
            }
        }
    }

    /// The actions to start when moving from `previous` (nil at the task's start) to `entered`.
    public static func actionsToStart(entering entered: StepLocation, from previous: StepLocation?,
                                      in task: TaskDefinition) -> [AsyncActionReference] {
        var result: [AsyncActionReference] = []
        let path = entered.indexPath
        for ownerDepth in 0..<path.count {
            let owner = StepLocation(Array(path.prefix(ownerDepth)))
            guard let actions = task.container(at: owner)?.asyncActions, !actions.isEmpty else { continue }
            let ownerEntered = previous.map { !$0.isWithin(owner) } ?? true
            // The steps and sections entered below the owner by this move.
            var enteredIdentifiers: Set<String> = []
            for depth in (ownerDepth + 1)...path.count {
                let location = StepLocation(Array(path.prefix(depth)))
                let isNew = depth == path.count || previous.map { !$0.isWithin(location) } ?? true
                if isNew, let step = task.step(at: location) { enteredIdentifiers.insert(step.identifier) }
            }
            for action in actions {
                let starts = action.startStepIdentifier.map { enteredIdentifiers.contains($0) } ?? ownerEntered
                if starts {
                    result.append(AsyncActionReference(owner: task.stepPath(of: owner), ownerLocation: owner, configuration: action))
                }
            }
        }
        return result
    }

    /// The running actions to stop when the step at `left` ends and navigation moves to `next`
    /// (nil when the task ends).
    public static func actionsToStop(leaving left: StepLocation, to next: StepLocation?,
                                     running: [AsyncActionReference], in task: TaskDefinition) -> [AsyncActionReference] {
        // The steps and sections that end with this move.
        var endedIdentifiers: Set<String> = []
        for depth in stride(from: left.indexPath.count, to: 0, by: -1) {
            let location = StepLocation(Array(left.indexPath.prefix(depth)))
            let ends = depth == left.indexPath.count || next.map { !$0.isWithin(location) } ?? true
            if ends, let step = task.step(at: location) { endedIdentifiers.insert(step.identifier) }
        }
        return running.filter { reference in
            let ownerEnded = next.map { !$0.isWithin(reference.ownerLocation) } ?? true
            if ownerEnded { return true }
            guard let stop = reference.configuration.stopStepIdentifier, left.isWithin(reference.ownerLocation) else { return false }
            return endedIdentifiers.contains(stop)
        }
    }

    /// The running actions to stop when the timer of the step at `location` finishes (before
    /// the person moves on): those whose `stopStepIdentifier` names that step.
    public static func actionsToStop(whenTimerFinishesAt location: StepLocation, running: [AsyncActionReference],
                                     in task: TaskDefinition) -> [AsyncActionReference] {
        guard let step = task.step(at: location) else { return [] }
        return running.filter {
            $0.configuration.stopStepIdentifier == step.identifier && location.isWithin($0.ownerLocation)
        }
    }
}
