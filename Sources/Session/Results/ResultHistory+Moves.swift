import Foundation
import TaskModel
import TaskNavigation

/// The session machine's moves carried into the history: the one place where its
/// `.moveSections` and `.showStep` effects become `ResultHistory` calls, so that the session and
/// the table tests that replay SageResearch's navigation (SageSectionHistoryTests) apply them
/// alike. The rule of when a section's result enters its parent's history is docs/runs.md's.
extension ResultHistory {
    /// Sections and subtasks left close their results, those entered open theirs. Left
    /// `forward`, a section's result enters its parent's history; left `backward` (the back
    /// command), it does not. `resume` false: a forward command's jump back starts the visited
    /// sections anew, as RSDTaskViewModel makes a new path component for every forward move.
    mutating func moveSections(exited: [StepLocation], entered: [StepLocation], direction: NavigationDirection,
                               resume: Bool, in task: TaskDefinition, at date: Date) {
        let direction = PathMarker.Direction(direction)
        for container in exited {
            leaveSection(path: task.identifiers(along: container), endDate: date, direction: direction)
        }
        for container in entered {
            // A taskInfo step's task gives a nested `task` result; sections and subtasks a `section`.
            let kind: BranchKind = task.step(at: container)?.kind == .taskInfo ? .task : .section
            try? enterSection(path: task.identifiers(along: container), startDate: date, direction: direction, kind: kind, resume: resume)
        }
    }

    /// The step at `location` is shown: a new result for it goes into its section's history.
    mutating func showStep(at location: StepLocation, direction: NavigationDirection, in task: TaskDefinition, at date: Date) {
        guard let step = task.step(at: location) else { return }
        try? showStep(path: task.identifiers(along: location), result: BaseResult(identifier: step.identifier, startDate: date, endDate: date),
                      direction: PathMarker.Direction(direction))
    }
}

extension PathMarker.Direction {
    /// The path marker of a navigation move.
    init(_ direction: NavigationDirection) {
        self = direction == .backward ? .backward : .forward
    }
}
