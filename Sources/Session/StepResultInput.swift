public import TaskModel

/// What a front end sends with "forward": the answers the person gave on the step shown and
/// where to go next.
public struct StepResultInput: Sendable, Hashable {
    public struct Answer: Sendable, Hashable {
        public var identifier: String
        public var value: JSONValue
        /// SageResearch's `answerType` object (`{"type": "integer"}`, …), as the front end knows it.
        public var answerType: JSONValue?
        public var questionText: String?

        public init(identifier: String, value: JSONValue, answerType: JSONValue? = nil, questionText: String? = nil) {
            self.identifier = identifier
            self.value = value
            self.answerType = answerType
            self.questionText = questionText
        }
    }

    public var answers: [Answer]
    public var skipToIdentifier: String?
    /// The front end's own result for the step, of a type the daemon knows (MotorControl's
    /// tapping result), checked and mapped onto the recorder clock by the daemon; it becomes
    /// the step's result.
    public var result: TappingResult?
    /// The step the front end answers (its `stepShown` path); when another step is shown by
    /// the time the session takes the command, the forward is refused (`stepNotShown`) rather
    /// than applied to a step the person never saw.
    public var stepPath: String?

    public init(answers: [Answer] = [], skipToIdentifier: String? = nil, result: TappingResult? = nil, stepPath: String? = nil) {
        self.answers = answers
        self.skipToIdentifier = skipToIdentifier
        self.result = result
        self.stepPath = stepPath
    }
}
