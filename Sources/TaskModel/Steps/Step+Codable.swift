extension Step: Codable {
    private enum CodingKeys: String, CodingKey {
        case identifier, type, nextStepIdentifier, fullInstructionsOnly, beforeCohortRules, afterCohortRules
        case duration, commands, spokenInstructions, shouldEndOnInterrupt, requiresBackgroundAudio
        case actions, resourceTransformer, task
    }

    public init(from decoder: any Decoder) throws {
        let registry = TypeRegistry.current(decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        type = try container.decode(StepType.self, forKey: .type)
        kind = registry.stepKind(for: type)
        properties = try [String: JSONValue](from: decoder)
        loadedFrom = nil

        // A type the daemon does not interpret is the front end's business: read what
        // navigation needs, leniently, and keep everything else as written.
        let lenient = kind == .ui
        func field<T: Decodable>(_ type: T.Type, _ key: CodingKeys) throws -> T? {
            if lenient { return try? container.decodeIfPresent(type, forKey: key) }
            return try container.decodeIfPresent(type, forKey: key)
        }
        nextStepIdentifier = try field(String.self, .nextStepIdentifier)
        fullInstructionsOnly = try field(Bool.self, .fullInstructionsOnly) ?? false
        beforeCohortRules = try field([CohortNavigationRule].self, .beforeCohortRules) ?? []
        afterCohortRules = try field([CohortNavigationRule].self, .afterCohortRules) ?? []
        duration = try field(Double.self, .duration)
        if let duration, !(duration >= 0 && duration.isFinite) {
            throw DecodingError.dataCorruptedError(
                forKey: .duration, in: container,
                debugDescription: "The duration must be a number of seconds of at least 0, not \(duration).")
        }
        commands = try field([ActiveStepCommand].self, .commands) ?? []
        spokenInstructions = try field([String: String].self, .spokenInstructions)
        shouldEndOnInterrupt = try field(Bool.self, .shouldEndOnInterrupt) ?? false
        requiresBackgroundAudio = try field(Bool.self, .requiresBackgroundAudio) ?? false

        var skips: [String: String] = [:]
        for (name, action) in properties["actions"]?.objectValue ?? [:] {
            if let target = action["skipToIdentifier"]?.stringValue { skips[name] = target }
        }
        actionSkipIdentifiers = skips

        switch kind {
        case .section:
            self.container = try StepContainer(decodingFrom: decoder)
            resourceTransformer = nil
        case .subtask:
            self.container = try StepContainer(decodingFrom: try container.superDecoder(forKey: .task))
            resourceTransformer = nil
        case .taskInfo:
            // An inline task runs nested; without one the loader looks for its file.
            self.container = container.contains(.task)
                ? try StepContainer(decodingFrom: try container.superDecoder(forKey: .task)) : nil
            resourceTransformer = nil
        case .transform:
            self.container = nil
            resourceTransformer = try container.decode(ResourceTransformer.self, forKey: .resourceTransformer)
        default:
            self.container = nil
            resourceTransformer = nil
        }
    }

    /// Encodes the step as written, with the resolved identifier and, for containers, the
    /// resolved contents (transforms replaced by what they loaded).
    public func encode(to encoder: any Encoder) throws {
        var members = properties
        members["identifier"] = .string(identifier)
        members["type"] = .string(type.rawValue)
        if let container {
            if kind == .subtask || kind == .taskInfo {
                var task = members["task"]?.objectValue ?? [:]
                try container.encodeMembers(into: &task)
                members["task"] = .object(task)
            } else {
                try container.encodeMembers(into: &members)
            }
        }
        try members.encode(to: encoder)
    }
}
