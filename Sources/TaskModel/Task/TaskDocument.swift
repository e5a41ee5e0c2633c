/// What a task file holds: a task, a single step (a section file loaded by a transform, or
/// any step), or a task group.
public enum TaskDocument: Sendable {
    case task(TaskDefinition)
    case step(Step)
    case taskGroup(TaskGroup)

    /// A word for the document's kind, for messages.
    public var kindDescription: String {
        switch self {
        case .task: "task"
        case .step(let step): step.kind == .section ? "section" : "step"
        case .taskGroup: "task group"
        }
    }

    /// How a document of these top-level members is decoded: a task group has `tasks`; a file
    /// whose `type` is a step type (or that has no `steps`) is a step; anything else is a task.
    static func kind(of members: [String: JSONValue], registry: TypeRegistry) -> Kind {
        if members["tasks"] != nil, members["steps"] == nil { return .taskGroup }
        let type = members["type"]?.stringValue
        if let type, registry.isTaskType(type) { return .task }
        if let type, registry.isKnownStepType(type) { return .step }
        if members["steps"] != nil { return .task }
        return type == nil ? .task : .step
    }

    enum Kind { case task, step, taskGroup }
}
