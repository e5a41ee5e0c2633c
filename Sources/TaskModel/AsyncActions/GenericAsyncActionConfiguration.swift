/// An async action of a type the registry does not know: kept whole (every key verbatim) so
/// the task still loads and the daemon can report the action as unsupported.
public struct GenericAsyncActionConfiguration: AsyncActionConfiguration, Hashable {
    public var identifier: String
    public var asyncActionType: AsyncActionType
    public var startStepIdentifier: String?
    public var stopStepIdentifier: String?
    /// Every key of the configuration as written.
    public var properties: [String: JSONValue]

    public var permissionTypes: [PermissionType] {
        (properties["permissionTypes"]?.arrayValue ?? []).compactMap { $0.stringValue.map(PermissionType.init(rawValue:)) }
    }

    public init(identifier: String, type: AsyncActionType, startStepIdentifier: String? = nil,
                stopStepIdentifier: String? = nil, properties: [String: JSONValue] = [:]) {
        self.identifier = identifier
        self.asyncActionType = type
        self.startStepIdentifier = startStepIdentifier
        self.stopStepIdentifier = stopStepIdentifier
        self.properties = properties
    }

    private enum CodingKeys: String, CodingKey {
        case identifier, type, startStepIdentifier, stopStepIdentifier
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        asyncActionType = try container.decode(AsyncActionType.self, forKey: .type)
        startStepIdentifier = try container.decodeIfPresent(String.self, forKey: .startStepIdentifier)
        stopStepIdentifier = try container.decodeIfPresent(String.self, forKey: .stopStepIdentifier)
        properties = try [String: JSONValue](from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var members = properties
        members["identifier"] = .string(identifier)
        members["type"] = .string(asyncActionType.rawValue)
        members["startStepIdentifier"] = startStepIdentifier.map(JSONValue.string)
        members["stopStepIdentifier"] = stopStepIdentifier.map(JSONValue.string)
        try members.encode(to: encoder)
    }
}
