/// A task as SageResearch decodes it (`assessment` and its aliases): identifier, steps,
/// the async actions it declares, progress markers, and every key as written.
public struct TaskDefinition: Sendable {
    public var identifier: String
    /// The type as written; nil when absent.
    public var type: TaskType?
    /// The steps, async actions and progress markers of the task itself.
    public var container: StepContainer
    /// Every key of the task as written (`shouldHideActions`, `actions`, `usesTrackedData`, …).
    public var properties: [String: JSONValue]
    /// Things worth a look that do not stop the task from loading.
    public var warnings: [TaskWarning]
    /// What a custom task type decoded from its extra keys (`TypeRegistry.registerTaskType(_:_:)`,
    /// docs/custom-tasks.md); nil for the built-in task types.
    public var custom: (any CustomTask)?

    public init(identifier: String, type: TaskType? = .assessment, container: StepContainer,
                properties: [String: JSONValue] = [:], warnings: [TaskWarning] = [], custom: (any CustomTask)? = nil) {
        self.identifier = identifier
        self.type = type
        self.container = container
        self.properties = properties
        self.warnings = warnings
        self.custom = custom
    }

    public var steps: [Step] { container.steps }
    public var asyncActions: [any AsyncActionConfiguration] { container.asyncActions }
    public var progressMarkers: [String]? { container.progressMarkers }
}

extension TaskDefinition: Codable {
    private enum CodingKeys: String, CodingKey { case identifier, type }

    public init(from decoder: any Decoder) throws {
        let keyed = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try keyed.decode(String.self, forKey: .identifier)
        type = try keyed.decodeIfPresent(TaskType.self, forKey: .type)
        container = try StepContainer(decodingFrom: decoder)
        properties = try [String: JSONValue](from: decoder)
        warnings = []
        let registry = TypeRegistry.current(decoder)
        custom = try type.flatMap { try Self.decodeCustom(ofType: $0.rawValue, from: decoder, registry: registry) }
        if let type {
            if !registry.isTaskType(type.rawValue) {
                warnings.append(TaskWarning(
                    codingPath: "type",
                    message: "Unknown task type \"\(type.rawValue)\"; it runs as \"assessment\". Register it (typeAliases) to silence this."))
            }
        } else {
            warnings.append(TaskWarning(
                codingPath: "type", message: "The task has no type; it runs as \"assessment\"."))
        }
    }

    /// The custom task type's own keys. A `DecodingError` naming a key inside the task goes
    /// out as it is (the loader prints its path); any other failure, such as the JSON decoder's
    /// own error for a fraction read as an integer, which it would report as invalid JSON,
    /// becomes a `CustomTaskError` naming the type.
    private static func decodeCustom(ofType type: String, from decoder: any Decoder, registry: TypeRegistry) throws -> (any CustomTask)? {
        do {
            return try registry.decodeCustomTask(ofType: type, from: decoder)
        } catch let error as DecodingError {
            guard case .dataCorrupted(let context) = error, context.codingPath.count <= decoder.codingPath.count else { throw error }
            throw CustomTaskError(taskType: type, detail: context.debugDescription)
        } catch {
            throw CustomTaskError(taskType: type, detail: "\(error)")
        }
    }

    /// Encodes the task as written, with transforms replaced by the steps they loaded.
    public func encode(to encoder: any Encoder) throws {
        var members = properties
        members["identifier"] = .string(identifier)
        members["type"] = type.map { .string($0.rawValue) }
        try container.encodeMembers(into: &members)
        try members.encode(to: encoder)
    }
}
