/// Maps type names onto built-in behaviour: step types onto `StepKind`s, task types onto
/// `assessment`, async action types onto their configuration decoders.
///
/// This is the embedder's "register your type with the serializer": add a custom step type
/// with `registerStepType(_:as:)`, a task type with `registerTaskType(_:)`, a custom task type
/// with extra keys (and its own navigator) with `registerTaskType(_:_:)`, a configuration
/// with `registerAsyncActionType(_:decode:)`, or apply a `TypeAliasTable` from configuration.
/// Decoding finds the registry in `userInfo[TypeRegistry.userInfoKey]` (else `.standard`).
public struct TypeRegistry: Sendable {
    /// Decodes one async action configuration whose `type` matched.
    public typealias AsyncActionDecoder = @Sendable (any Decoder) throws -> any AsyncActionConfiguration
    /// Decodes the extra keys of a custom task type from the task's JSON object.
    public typealias CustomTaskDecoder = @Sendable (any Decoder) throws -> any CustomTask

    /// The `userInfo` key under which decoders carry the registry.
    public static let userInfoKey = CodingUserInfoKey(rawValue: "org.activetask.typeRegistry")!

    /// The task types of the SageResearch corpus, all behaving as `assessment`.
    public static let standardTaskTypes: Set<String> = [
        "assessment", "motionTask", "audioRecorderTask", "motorControlTask", "crf",
    ]

    /// MotorControl's step types of the corpus, as its own factory decodes them: the hand
    /// instruction is an instruction step, the tapping step an active step (its timer starts
    /// when the front end says so, at the first tap, as MotorControl's does). `handSelection`
    /// is a question step (docs/task-format.md, "Hands").
    public static let motorControlStepKinds: [String: StepKind] = [
        "handInstruction": .instruction,
        "tapping": .active,
    ]

    /// The built-in registry: SageResearch's and MotorControl's step types, task types and async actions.
    public static let standard = TypeRegistry()

    private var stepKinds: [String: StepKind]
    private var taskTypes: Set<String>
    private var asyncActionDecoders: [String: AsyncActionDecoder]
    private var customTaskDecoders: [String: CustomTaskDecoder] = [:]

    /// A registry holding the built-in types only.
    public init() {
        stepKinds = [:]
        for kind in StepKind.allCases where kind != .ui {
            stepKinds[kind.rawValue] = kind
        }
        for (name, kind) in Self.motorControlStepKinds {
            stepKinds[name] = kind
        }
        taskTypes = Self.standardTaskTypes
        asyncActionDecoders = [
            AsyncActionType.motion.rawValue: { try MotionRecorderConfiguration(from: $0) },
            AsyncActionType.microphone.rawValue: { try AudioRecorderConfiguration(from: $0) },
            AsyncActionType.distance.rawValue: { try DistanceRecorderConfiguration(from: $0) },
        ]
    }

    /// Makes steps of type `name` behave as `kind` (for example `handInstruction` → `.instruction`).
    public mutating func registerStepType(_ name: String, as kind: StepKind) {
        stepKinds[name] = kind
    }

    /// Accepts `name` as a task type behaving as `assessment`.
    public mutating func registerTaskType(_ name: String) {
        taskTypes.insert(name)
    }

    /// Accepts `name` as a task type whose tasks also decode `custom` from their JSON object
    /// (docs/custom-tasks.md): the assessment's keys as usual, and the decoded value as the
    /// task's `TaskDefinition.custom`. A `custom` type that is `StepNavigatorProviding`
    /// (TaskNavigation) drives the task's navigation too. Replaces an earlier registration.
    public mutating func registerTaskType(_ name: String, _ custom: any CustomTask.Type) {
        registerTaskType(name) { try custom.init(from: $0) }
    }

    /// Accepts `name` as a task type whose tasks also decode `decode`'s value from their JSON
    /// object, as `registerTaskType(_:_:)` does.
    public mutating func registerTaskType(_ name: String, decode: @escaping CustomTaskDecoder) {
        taskTypes.insert(name)
        customTaskDecoders[name] = decode
    }

    /// Decodes async actions of `type` with `decode` (replacing any earlier registration).
    public mutating func registerAsyncActionType(_ type: AsyncActionType, decode: @escaping AsyncActionDecoder) {
        asyncActionDecoders[type.rawValue] = decode
    }

    /// Applies a configuration table of aliases; throws when a target names no known type.
    public mutating func apply(_ table: TypeAliasTable) throws(TypeRegistryError) {
        for (alias, target) in table.typeAliases.sorted(by: { $0.key < $1.key }) {
            if let kind = stepKinds[target] {
                stepKinds[alias] = kind
            } else if taskTypes.contains(target) {
                taskTypes.insert(alias)
                // An alias of a custom task type decodes as that type.
                if let decode = customTaskDecoders[target] { customTaskDecoders[alias] = decode }
            } else if let decoder = asyncActionDecoders[target] {
                asyncActionDecoders[alias] = decoder
            } else {
                throw TypeRegistryError(alias: alias, target: target)
            }
        }
    }

    /// The kind a step of `type` behaves as; `.ui` (passed through) for unknown types.
    public func stepKind(for type: StepType) -> StepKind {
        stepKinds[type.rawValue] ?? .ui
    }

    /// True when `type` is a known task type (behaving as `assessment`).
    public func isTaskType(_ type: String) -> Bool {
        taskTypes.contains(type)
    }

    /// True when `type` is a custom task type registered with its own decoding.
    public func isCustomTaskType(_ type: String) -> Bool {
        customTaskDecoders[type] != nil
    }

    /// Decodes the extra keys of a task of the custom `type` from `decoder` (positioned at the
    /// task's JSON object); nil when `type` is not a custom task type.
    public func decodeCustomTask(ofType type: String, from decoder: any Decoder) throws -> (any CustomTask)? {
        guard let decode = customTaskDecoders[type] else { return nil }
        return try decode(decoder)
    }

    /// True when `type` names a step type the registry knows (built in or aliased).
    public func isKnownStepType(_ type: String) -> Bool {
        stepKinds[type] != nil
    }

    /// True when `type` names an async action type the registry decodes.
    public func isAsyncActionType(_ type: String) -> Bool {
        asyncActionDecoders[type] != nil
    }

    /// Decodes the async action configuration at `decoder`, dispatching on its `type`; an
    /// unknown type is kept as a `GenericAsyncActionConfiguration`.
    public func decodeAsyncAction(from decoder: any Decoder) throws -> any AsyncActionConfiguration {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        let type = try container.decode(String.self, forKey: AnyCodingKey("type"))
        if let decode = asyncActionDecoders[type] {
            return try decode(decoder)
        }
        return try GenericAsyncActionConfiguration(from: decoder)
    }
}

extension TypeRegistry {
    /// The registry a decoder carries in its `userInfo`, else `.standard`.
    static func current(_ decoder: any Decoder) -> TypeRegistry {
        decoder.userInfo[userInfoKey] as? TypeRegistry ?? .standard
    }
}
