/// One entry of a question's `surveyRules` (SageResearch's `JsonSurveyRuleObject`): every key
/// optional, nothing checked on decoding, as on iOS.
public struct SurveyRule: Sendable, Hashable {
    public var skipToIdentifier: String?
    /// The value compared with the answer; a JSON null counts as absent.
    public var matchingAnswer: JSONValue?
    /// As written; see `effectiveOperator`.
    public var ruleOperator: SurveyRuleOperator?
    /// The cohort this rule adds when it matches and removes when it does not.
    public var cohort: String?

    public init(skipToIdentifier: String? = nil, matchingAnswer: JSONValue? = nil, ruleOperator: SurveyRuleOperator? = nil, cohort: String? = nil) {
        self.skipToIdentifier = skipToIdentifier
        self.matchingAnswer = matchingAnswer == .null ? nil : matchingAnswer
        self.ruleOperator = ruleOperator
        self.cohort = cohort
    }

    /// The operator as SageResearch applies it: the one written, else `de` without a matching
    /// answer and `eq` with one.
    public var effectiveOperator: SurveyRuleOperator {
        ruleOperator ?? (matchingAnswer == nil ? .skip : .equal)
    }
}
