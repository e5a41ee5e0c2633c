/// The contents of a task, section or subtask: its steps, the async actions it declares and
/// its progress markers.
public struct StepContainer: Sendable {
    public var steps: [Step]
    /// The async actions this container declares; they start at its first step (or their
    /// `startStepIdentifier`) and stop when it ends (or at their `stopStepIdentifier`).
    public var asyncActions: [any AsyncActionConfiguration]
    /// The identifiers of the steps that count for progress; nil when not given.
    public var progressMarkers: [String]?

    public init(steps: [Step], asyncActions: [any AsyncActionConfiguration] = [], progressMarkers: [String]? = nil) {
        self.steps = steps
        self.asyncActions = asyncActions
        self.progressMarkers = progressMarkers
    }

    /// The step with `identifier` among the direct children; nil when there is none.
    public func index(of identifier: String) -> Int? {
        steps.firstIndex { $0.identifier == identifier }
    }
}

extension StepContainer {
    private enum CodingKeys: String, CodingKey { case steps, asyncActions, progressMarkers }

    /// Decodes `steps` (required), `asyncActions` (through the registry) and `progressMarkers`.
    init(decodingFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        steps = try container.decode([Step].self, forKey: .steps)
        var actions: [any AsyncActionConfiguration] = []
        if container.contains(.asyncActions), try !container.decodeNil(forKey: .asyncActions) {
            let registry = TypeRegistry.current(decoder)
            var list = try container.nestedUnkeyedContainer(forKey: .asyncActions)
            while !list.isAtEnd {
                actions.append(try registry.decodeAsyncAction(from: try list.superDecoder()))
            }
        }
        asyncActions = actions
        progressMarkers = try container.decodeIfPresent([String].self, forKey: .progressMarkers)
    }

    /// Encodes the members written by `init(decodingFrom:)` into `members`.
    func encodeMembers(into members: inout [String: JSONValue]) throws {
        members["steps"] = .array(try steps.map { try JSONValue.encoding($0) })
        members["asyncActions"] = asyncActions.isEmpty && members["asyncActions"] == nil
            ? nil : .array(try asyncActions.map { try JSONValue.encoding($0) })
        members["progressMarkers"] = progressMarkers.map { .array($0.map(JSONValue.string)) }
    }
}
