/// `run.forward`: the step's result from the front end.
public struct ForwardParams: Sendable, Hashable, ControlSchemaDescribing {
    /// The answers collected on the step, added to its result.
    public var answers: [StepAnswer]?
    /// Where to go next, as a navigation result's `skipToIdentifier` (DESIGN 2).
    public var skipToIdentifier: String?

    public init(answers: [StepAnswer]? = nil, skipToIdentifier: String? = nil) {
        self.answers = answers
        self.skipToIdentifier = skipToIdentifier
    }

    public static var schema: JSONSchema {
        .object([
            .init("answers", .array(.reference(to: StepAnswer.self))),
            .init("skipToIdentifier", .string()),
        ], required: [])
    }
}
