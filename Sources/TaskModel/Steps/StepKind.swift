/// The built-in behaviour a step type maps onto through the `TypeRegistry`.
public enum StepKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A page of instructions; the user moves on.
    case instruction
    /// The first page of a task: what it is, what it needs (`permissions`, `icons`).
    case overview
    /// A timed step (`duration`, `commands`, `spokenInstructions`) during which recorders run.
    case active
    /// A timed step counting down before an active step; 5 s by default, always moves on by itself.
    case countdown
    /// The last page of a task.
    case completion
    /// A container of steps with its own `asyncActions` and `progressMarkers`.
    case section
    /// A step loaded from another file (`resourceTransformer.resourceName`); replaced on loading.
    case transform
    /// A task run nested in this one (`task` inline, or loaded from the task directory), giving
    /// a nested `task` result; shown as a step when it names no task that can be found.
    case taskInfo
    /// A container running an embedded task (`task`) as a section.
    case subtask
    /// A step type the daemon does not interpret: passed through to the front end as it is.
    case ui

    /// True for steps that contain other steps.
    public var isContainer: Bool { self == .section || self == .subtask }

    /// True for steps with a timer (`duration`).
    public var isTimed: Bool { self == .active || self == .countdown }
}
