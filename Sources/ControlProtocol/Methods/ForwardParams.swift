/// `run.forward`: the step's result from the front end.
public struct ForwardParams: Sendable, Hashable, ControlParams {
    /// The answers collected on the step, added to its result.
    public var answers: [StepAnswer]?
    /// Where to go next, as a navigation result's `skipToIdentifier` (DESIGN 2).
    public var skipToIdentifier: String?
    /// The step the front end is leaving; when given and another step is showing (the timer
    /// moved on, another client went forward), the command is refused with -32000 instead of
    /// leaving the wrong step.
    public var stepPath: String?

    public init(answers: [StepAnswer]? = nil, skipToIdentifier: String? = nil, stepPath: String? = nil) {
        self.answers = answers
        self.skipToIdentifier = skipToIdentifier
        self.stepPath = stepPath
    }

    /// Left out: go forward with no answers.
    public static var whenAbsent: ForwardParams? { ForwardParams() }

    public static var schema: JSONSchema {
        .object([
            .init("answers", .array(.reference(to: StepAnswer.self))),
            .init("skipToIdentifier", .string()),
            .init("stepPath", .described("The step being left; refused with -32000 if another step is showing.", .string())),
        ], required: [])
    }
}
