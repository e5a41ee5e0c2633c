/// A `motion` async action: records motion sensors and device motion to a sample file.
///
/// Defaults are SageResearch's: `recorderTypes` [accelerometer, gyro], `frequency` 100 Hz,
/// `shouldDeletePrevious` true, JSON encoding.
public struct MotionRecorderConfiguration: AsyncActionConfiguration, Hashable {
    public var identifier: String
    public var startStepIdentifier: String?
    public var stopStepIdentifier: String?
    public var requiresBackgroundAudio: Bool
    /// The types as written in the JSON; nil when absent.
    public var recorderTypes: [MotionRecorderType]?
    /// The sampling frequency in Hz as written; nil when absent.
    public var frequency: Double?
    public var shouldDeletePrevious: Bool?
    public var usesCSVEncoding: Bool?

    public static let defaultRecorderTypes: [MotionRecorderType] = [.accelerometer, .gyro]
    public static let defaultFrequency: Double = 100

    public var asyncActionType: AsyncActionType { .motion }
    public var permissionTypes: [PermissionType] { [.motion] }

    /// The recorder types to record, with the default applied.
    public var effectiveRecorderTypes: [MotionRecorderType] { recorderTypes ?? Self.defaultRecorderTypes }
    /// The sampling frequency in Hz, with the default applied.
    public var effectiveFrequency: Double { frequency ?? Self.defaultFrequency }
    /// Whether a previous file of the same name is deleted first, with the default applied.
    public var effectiveShouldDeletePrevious: Bool { shouldDeletePrevious ?? true }
    /// Whether samples are written as CSV instead of a JSON array.
    public var effectiveUsesCSVEncoding: Bool { usesCSVEncoding ?? false }

    public init(
        identifier: String,
        startStepIdentifier: String? = nil,
        stopStepIdentifier: String? = nil,
        requiresBackgroundAudio: Bool = false,
        recorderTypes: [MotionRecorderType]? = nil,
        frequency: Double? = nil,
        shouldDeletePrevious: Bool? = nil,
        usesCSVEncoding: Bool? = nil
    ) {
        self.identifier = identifier
        self.startStepIdentifier = startStepIdentifier
        self.stopStepIdentifier = stopStepIdentifier
        self.requiresBackgroundAudio = requiresBackgroundAudio
        self.recorderTypes = recorderTypes
        self.frequency = frequency
        self.shouldDeletePrevious = shouldDeletePrevious
        self.usesCSVEncoding = usesCSVEncoding
    }

    private enum CodingKeys: String, CodingKey {
        case identifier, type, startStepIdentifier, stopStepIdentifier, requiresBackgroundAudio
        case recorderTypes, frequency, shouldDeletePrevious, usesCSVEncoding
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        startStepIdentifier = try container.decodeIfPresent(String.self, forKey: .startStepIdentifier)
        stopStepIdentifier = try container.decodeIfPresent(String.self, forKey: .stopStepIdentifier)
        requiresBackgroundAudio = try container.decodeIfPresent(Bool.self, forKey: .requiresBackgroundAudio) ?? false
        recorderTypes = try container.decodeIfPresent([MotionRecorderType].self, forKey: .recorderTypes)
        frequency = try container.decodeIfPresent(Double.self, forKey: .frequency)
        if let frequency, !(frequency > 0 && frequency.isFinite) {
            throw DecodingError.dataCorruptedError(
                forKey: .frequency, in: container,
                debugDescription: "The frequency must be a positive number of hertz, not \(frequency).")
        }
        shouldDeletePrevious = try container.decodeIfPresent(Bool.self, forKey: .shouldDeletePrevious)
        usesCSVEncoding = try container.decodeIfPresent(Bool.self, forKey: .usesCSVEncoding)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(asyncActionType, forKey: .type)
        try container.encodeIfPresent(startStepIdentifier, forKey: .startStepIdentifier)
        try container.encodeIfPresent(stopStepIdentifier, forKey: .stopStepIdentifier)
        if requiresBackgroundAudio { try container.encode(true, forKey: .requiresBackgroundAudio) }
        try container.encodeIfPresent(recorderTypes, forKey: .recorderTypes)
        try container.encodeIfPresent(frequency, forKey: .frequency)
        try container.encodeIfPresent(shouldDeletePrevious, forKey: .shouldDeletePrevious)
        try container.encodeIfPresent(usesCSVEncoding, forKey: .usesCSVEncoding)
    }
}
