/// A `microphone` async action: records audio levels and, with `saveAudioFile`, the audio.
///
/// Defaults are SageResearch's: `saveAudioFile` false (the audio file is deleted once the
/// levels are written), `shouldDeletePrevious` true.
public struct AudioRecorderConfiguration: AsyncActionConfiguration, Hashable {
    public var identifier: String
    public var startStepIdentifier: String?
    public var stopStepIdentifier: String?
    public var requiresBackgroundAudio: Bool
    public var saveAudioFile: Bool?
    public var shouldDeletePrevious: Bool?

    public var asyncActionType: AsyncActionType { .microphone }
    public var permissionTypes: [PermissionType] { [.microphone] }

    /// Whether the audio file is kept, with the default applied.
    public var effectiveSaveAudioFile: Bool { saveAudioFile ?? false }
    /// Whether a previous file of the same name is deleted first, with the default applied.
    public var effectiveShouldDeletePrevious: Bool { shouldDeletePrevious ?? true }

    public init(
        identifier: String,
        startStepIdentifier: String? = nil,
        stopStepIdentifier: String? = nil,
        requiresBackgroundAudio: Bool = false,
        saveAudioFile: Bool? = nil,
        shouldDeletePrevious: Bool? = nil
    ) {
        self.identifier = identifier
        self.startStepIdentifier = startStepIdentifier
        self.stopStepIdentifier = stopStepIdentifier
        self.requiresBackgroundAudio = requiresBackgroundAudio
        self.saveAudioFile = saveAudioFile
        self.shouldDeletePrevious = shouldDeletePrevious
    }

    private enum CodingKeys: String, CodingKey {
        case identifier, type, startStepIdentifier, stopStepIdentifier, requiresBackgroundAudio
        case saveAudioFile, shouldDeletePrevious
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        startStepIdentifier = try container.decodeIfPresent(String.self, forKey: .startStepIdentifier)
        stopStepIdentifier = try container.decodeIfPresent(String.self, forKey: .stopStepIdentifier)
        requiresBackgroundAudio = try container.decodeIfPresent(Bool.self, forKey: .requiresBackgroundAudio) ?? false
        saveAudioFile = try container.decodeIfPresent(Bool.self, forKey: .saveAudioFile)
        shouldDeletePrevious = try container.decodeIfPresent(Bool.self, forKey: .shouldDeletePrevious)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(asyncActionType, forKey: .type)
        try container.encodeIfPresent(startStepIdentifier, forKey: .startStepIdentifier)
        try container.encodeIfPresent(stopStepIdentifier, forKey: .stopStepIdentifier)
        if requiresBackgroundAudio { try container.encode(true, forKey: .requiresBackgroundAudio) }
        try container.encodeIfPresent(saveAudioFile, forKey: .saveAudioFile)
        try container.encodeIfPresent(shouldDeletePrevious, forKey: .shouldDeletePrevious)
    }
}
