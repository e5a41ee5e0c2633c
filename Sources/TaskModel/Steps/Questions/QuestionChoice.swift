/// One choice of a choice question or picker (SageResearch's `JsonChoiceObject`; a plain
/// string in a `stringChoiceQuestion` is its own text and value).
public struct QuestionChoice: Sendable, Hashable {
    /// The value the answer holds when this choice is selected; nil (JSON null) for a choice
    /// such as "None of the above" written without one.
    public var value: JSONValue?
    public var text: String?
    /// Selecting it deselects every other choice.
    public var isExclusive: Bool

    public init(value: JSONValue?, text: String? = nil, isExclusive: Bool = false) {
        self.value = value == .null ? nil : value
        self.text = text
        self.isExclusive = isExclusive
    }
}
