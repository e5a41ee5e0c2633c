/// One step of a task as SageResearch decodes it: the fields the daemon interprets, typed,
/// plus every key as written (`properties`) for the front end.
///
/// The behaviour comes from `kind` (the type registry's mapping of `type`); `type` stays as
/// written. Containers (`section`, `subtask`) carry their contents in `container`; a
/// `transform` step carries its `resourceTransformer` until the loader replaces it with the
/// step it loads (which then takes the transform's identifier).
public struct Step: Sendable {
    public var identifier: String
    /// The type as written in the JSON.
    public var type: StepType
    /// The built-in behaviour `type` maps onto.
    public var kind: StepKind
    public var nextStepIdentifier: String?
    /// Shown only in full-instructions mode (the default).
    public var fullInstructionsOnly: Bool
    public var beforeCohortRules: [CohortNavigationRule]
    public var afterCohortRules: [CohortNavigationRule]
    /// Seconds as written; a countdown without one gets 5 s (see `effectiveDuration`).
    public var duration: Double?
    public var commands: [ActiveStepCommand]
    /// The `spokenInstructions` table as written (`start`, `halfway`, `end`, `countdown`, seconds).
    public var spokenInstructions: [String: String]?
    public var shouldEndOnInterrupt: Bool
    public var requiresBackgroundAudio: Bool
    /// The `skipToIdentifier` of each navigation action in `actions`, by action name.
    public var actionSkipIdentifiers: [String: String]
    /// The contents of a section, subtask or `taskInfo` step's task; nil for other steps.
    public var container: StepContainer?
    /// The file a transform step loads; nil for other steps.
    public var resourceTransformer: ResourceTransformer?
    /// The file this step (or a `taskInfo` step's task) was loaded from; nil when written inline.
    public var loadedFrom: String?
    /// Every key of the step as written, interpreted or not.
    public var properties: [String: JSONValue]

    /// SageResearch's countdown duration when none is given.
    public static let defaultCountdownDuration: Double = 5

    public init(
        identifier: String, type: StepType, kind: StepKind, nextStepIdentifier: String? = nil,
        fullInstructionsOnly: Bool = false, beforeCohortRules: [CohortNavigationRule] = [],
        afterCohortRules: [CohortNavigationRule] = [], duration: Double? = nil,
        commands: [ActiveStepCommand] = [], spokenInstructions: [String: String]? = nil,
        shouldEndOnInterrupt: Bool = false, requiresBackgroundAudio: Bool = false,
        actionSkipIdentifiers: [String: String] = [:], container: StepContainer? = nil,
        resourceTransformer: ResourceTransformer? = nil, properties: [String: JSONValue] = [:]
    ) {
        self.identifier = identifier
        self.type = type
        self.kind = kind
        self.nextStepIdentifier = nextStepIdentifier
        self.fullInstructionsOnly = fullInstructionsOnly
        self.beforeCohortRules = beforeCohortRules
        self.afterCohortRules = afterCohortRules
        self.duration = duration
        self.commands = commands
        self.spokenInstructions = spokenInstructions
        self.shouldEndOnInterrupt = shouldEndOnInterrupt
        self.requiresBackgroundAudio = requiresBackgroundAudio
        self.actionSkipIdentifiers = actionSkipIdentifiers
        self.container = container
        self.resourceTransformer = resourceTransformer
        self.properties = properties
    }

    /// The step timer's length in seconds: `duration`, 5 s for a countdown without one;
    /// nil when the step has no timer (absent or 0).
    public var effectiveDuration: Double? {
        if let duration, duration > 0 { return duration }
        return kind == .countdown ? Self.defaultCountdownDuration : nil
    }

    /// Whether the step moves on by itself when its timer ends (countdowns always do).
    public var transitionsAutomatically: Bool {
        kind == .countdown || commands.contains(.transitionAutomatically) || commands.contains(.continueOnFinish)
    }
}
