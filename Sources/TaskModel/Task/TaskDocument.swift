/// What a task file holds: a task, a single step (a section file loaded by a transform, or
/// any step), a task group, or a lone async action configuration.
public enum TaskDocument: Sendable {
    case task(TaskDefinition)
    case step(Step)
    case taskGroup(TaskGroup)
    /// A lone async action configuration (a recorder's settings file).
    case asyncAction(any AsyncActionConfiguration)

    /// A word for the document's kind, for messages.
    public var kindDescription: String {
        switch self {
        case .task: "task"
        case .step(let step): step.kind == .section ? "section" : "step"
        case .taskGroup: "task group"
        case .asyncAction: "async action configuration"
        }
    }

    /// How a document of these top-level members is decoded: a task group has `tasks`; a file
    /// whose `type` is a step type (or that has no `steps`) is a step; anything else is a task.
    static func kind(of members: [String: JSONValue], registry: TypeRegistry) -> Kind {
        if members["tasks"] != nil, members["steps"] == nil { return .taskGroup }
        let type = members["type"]?.stringValue
        if let type, registry.isTaskType(type) { return .task }
        if let type, registry.isKnownStepType(type) { return .step }
        if let type, registry.isAsyncActionType(type), members["steps"] == nil { return .asyncAction }
        if members["steps"] != nil { return .task }
        return type == nil ? .task : .step
    }

    enum Kind { case task, step, taskGroup, asyncAction }
}
