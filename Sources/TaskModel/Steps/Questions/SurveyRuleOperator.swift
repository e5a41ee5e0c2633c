/// SageResearch's `RSDSurveyRuleOperator`: how a survey rule compares the answer with its
/// `matchingAnswer`.
public enum SurveyRuleOperator: String, Sendable, Hashable, CaseIterable {
    /// The question was skipped: no answer, or a null one.
    case skip = "de"
    case equal = "eq"
    case notEqual = "ne"
    case lessThan = "lt"
    case greaterThan = "gt"
    case lessThanEqual = "le"
    case greaterThanEqual = "ge"
    /// None of the matching values was chosen.
    case otherThan = "ot"
    /// Matches whatever the answer.
    case always
}
