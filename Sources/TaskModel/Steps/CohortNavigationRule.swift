/// A `beforeCohortRules`/`afterCohortRules` entry: when the participant's cohorts match
/// `requiredCohorts` (all of them, or any with `"operator": "any"`), navigation skips.
///
/// Before a step, a match skips to `skipToIdentifier` (nil: skips just this step); after a
/// step, a match skips to `skipToIdentifier` (nil: leaves the enclosing section or task).
public struct CohortNavigationRule: Codable, Sendable, Hashable {
    /// How `requiredCohorts` are tested.
    public enum Operator: String, Codable, Sendable, Hashable {
        case all, any
    }

    public var requiredCohorts: Set<String>
    /// As written; nil means `.all`.
    public var cohortOperator: Operator?
    public var skipToIdentifier: String?

    public init(requiredCohorts: Set<String>, cohortOperator: Operator? = nil, skipToIdentifier: String? = nil) {
        self.requiredCohorts = requiredCohorts
        self.cohortOperator = cohortOperator
        self.skipToIdentifier = skipToIdentifier
    }

    private enum CodingKeys: String, CodingKey {
        case requiredCohorts, cohortOperator = "operator", skipToIdentifier
    }

    /// Whether the rule applies to a participant in `cohorts`; an empty rule never applies.
    public func matches(_ cohorts: Set<String>) -> Bool {
        guard !requiredCohorts.isEmpty else { return false }
        switch cohortOperator ?? .all {
        case .all: return requiredCohorts.isSubset(of: cohorts)
        case .any: return !requiredCohorts.isDisjoint(with: cohorts)
        }
    }
}
