/// A question step as SageResearch 4 decodes it (docs/task-format.md, "Question steps"):
/// `simpleQuestion`, `multipleInputQuestion`, `choiceQuestion`, `stringChoiceQuestion`, and
/// MotorControl's `handSelection` (a required single choice of `left`, `right`, `both`).
/// Decoded from the step's `properties`, which stay as written for the front end.
public struct QuestionStep: Sendable, Hashable {
    /// The step `type`.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case simpleQuestion, multipleInputQuestion, choiceQuestion, stringChoiceQuestion, handSelection
    }

    public var identifier: String
    public var kind: Kind
    /// `optional`; true when absent, as in SageResearch (a hand selection is never optional).
    public var isOptional: Bool
    /// The input items (`inputItem`, or `inputItems`); empty for choice questions.
    public var inputItems: [InputItem]
    /// The `skipCheckbox` item's `value` when the step has one (its answer when ticked).
    public var skipCheckbox: SkipCheckbox?
    /// The choices of a choice question.
    public var choices: [QuestionChoice]
    /// The JSON type of a choice question's values (`baseType`, `string` by default).
    public var baseType: AnswerType.BaseType
    /// A choice question's `singleChoice` (true by default).
    public var singleChoice: Bool
    public var surveyRules: [SurveyRule]
    /// The text of the answer result's `questionText`: `title`, else `subtitle`/`text`, else `detail`.
    public var questionText: String?

    /// The exclusive "no answer" box of a simple or multiple-input question.
    public struct SkipCheckbox: Sendable, Hashable {
        /// The answer when it is ticked; nil (JSON null) when it has none.
        public var value: JSONValue?
        public init(value: JSONValue?) { self.value = value == .null ? nil : value }
    }

    public init(identifier: String, kind: Kind, isOptional: Bool = true, inputItems: [InputItem] = [],
                skipCheckbox: SkipCheckbox? = nil, choices: [QuestionChoice] = [], baseType: AnswerType.BaseType = .string,
                singleChoice: Bool = true, surveyRules: [SurveyRule] = [], questionText: String? = nil) {
        self.identifier = identifier
        self.kind = kind
        self.isOptional = isOptional
        self.inputItems = inputItems
        self.skipCheckbox = skipCheckbox
        self.choices = choices
        self.baseType = baseType
        self.singleChoice = singleChoice
        self.surveyRules = surveyRules
        self.questionText = questionText
    }

    /// Whether the step's answers come from choices (one per choice) rather than input items.
    public var isChoiceQuestion: Bool {
        kind == .choiceQuestion || kind == .stringChoiceQuestion || kind == .handSelection
    }

    /// The type of the step's answer result: its single item's for a simple question, an object
    /// for a multiple-input question, `baseType` (or an array of it) for a choice question.
    public var answerType: AnswerType {
        switch kind {
        case .simpleQuestion: inputItems.first?.answerType ?? .string
        case .multipleInputQuestion: .object
        case .choiceQuestion, .stringChoiceQuestion, .handSelection: singleChoice ? AnswerType(baseType) : .array(baseType)
        }
    }

    /// The key an input item's value has in a multiple-input answer: its identifier, else the
    /// row's (`<question>` for the first, `<question>.<n>` after it).
    public func key(ofItemAt index: Int) -> String {
        inputItems[index].identifier ?? (index == 0 ? identifier : "\(identifier).\(index)")
    }

    /// MotorControl's hand choices.
    public static let handChoices = ["left", "right", "both"].map { QuestionChoice(value: .string($0), text: $0) }
}

extension Step {
    /// True for a step whose `type` is one of the question types.
    public var isQuestion: Bool { QuestionStep.Kind(rawValue: type.rawValue) != nil }

    /// The question this step asks; nil when it is not a question step. Throws when the
    /// question's keys do not decode (the loader reports it with its coding path).
    public func question() throws(QuestionDecodingError) -> QuestionStep? {
        guard let kind = QuestionStep.Kind(rawValue: type.rawValue) else { return nil }
        return try QuestionStep(decoding: properties, identifier: identifier, kind: kind)
    }
}
