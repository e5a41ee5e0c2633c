/// A `distance` async action: location-based distance during a walk or run (GPS).
///
/// Decoded so that tasks using it load; devices without location report it unsupported and
/// skip it with a clear message.
public struct DistanceRecorderConfiguration: AsyncActionConfiguration, Hashable {
    public var identifier: String
    public var startStepIdentifier: String?
    public var stopStepIdentifier: String?
    /// The step during which the person is moving (distance is measured over it).
    public var motionStepIdentifier: String?
    public var usesCSVEncoding: Bool?

    public var asyncActionType: AsyncActionType { .distance }
    public var permissionTypes: [PermissionType] { [.locationWhenInUse, .motion] }

    public init(
        identifier: String,
        startStepIdentifier: String? = nil,
        stopStepIdentifier: String? = nil,
        motionStepIdentifier: String? = nil,
        usesCSVEncoding: Bool? = nil
    ) {
        self.identifier = identifier
        self.startStepIdentifier = startStepIdentifier
        self.stopStepIdentifier = stopStepIdentifier
        self.motionStepIdentifier = motionStepIdentifier
        self.usesCSVEncoding = usesCSVEncoding
    }

    private enum CodingKeys: String, CodingKey {
        case identifier, type, startStepIdentifier, stopStepIdentifier, motionStepIdentifier, usesCSVEncoding
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        startStepIdentifier = try container.decodeIfPresent(String.self, forKey: .startStepIdentifier)
        stopStepIdentifier = try container.decodeIfPresent(String.self, forKey: .stopStepIdentifier)
        motionStepIdentifier = try container.decodeIfPresent(String.self, forKey: .motionStepIdentifier)
        usesCSVEncoding = try container.decodeIfPresent(Bool.self, forKey: .usesCSVEncoding)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(asyncActionType, forKey: .type)
        try container.encodeIfPresent(startStepIdentifier, forKey: .startStepIdentifier)
        try container.encodeIfPresent(stopStepIdentifier, forKey: .stopStepIdentifier)
        try container.encodeIfPresent(motionStepIdentifier, forKey: .motionStepIdentifier)
        try container.encodeIfPresent(usesCSVEncoding, forKey: .usesCSVEncoding)
    }
}
