public import TaskModel

/// `run.start`: who the participant is for navigation (docs/protocol.md, "run.start").
public struct RunStartParams: Sendable, Hashable, Codable, ControlParams {
    /// The participant's cohorts, tested by the steps' `beforeCohortRules`/`afterCohortRules`
    /// and changed by survey rules with a `cohort`; none when absent.
    public var cohorts: [String]?
    /// False runs the abbreviated instructions: `fullInstructionsOnly` steps are left out.
    /// True when absent.
    public var fullInstructions: Bool?

    public init(cohorts: [String]? = nil, fullInstructions: Bool? = nil) {
        self.cohorts = cohorts
        self.fullInstructions = fullInstructions
    }

    /// Left out: no cohorts, full instructions.
    public static var whenAbsent: RunStartParams? { RunStartParams() }

    public static func decode(_ params: JSONValue?, for method: String) throws(ControlError) -> RunStartParams {
        // `[]` stays accepted as it was when run.start took no params.
        if params == nil || params == .array([]) { return RunStartParams() }
        let decoded = try decodeByName(params, for: method)
        try decoded.validate(for: method)
        return decoded
    }

    public func validate(for method: String) throws(ControlError) {
        for (index, cohort) in (cohorts ?? []).enumerated() where cohort.isEmpty {
            throw ControlError(.invalidParams, "\(method): cohorts[\(index)] is empty; name each cohort.",
                               data: ControlErrorData(codingPath: "cohorts[\(index)]", method: method))
        }
    }

    public func requestParams() throws -> JSONValue? {
        cohorts == nil && fullInstructions == nil ? nil : try JSONValue.encoding(self)
    }

    public static var schema: JSONSchema {
        .object([
            .init("cohorts", .described("The participant's cohorts (beforeCohortRules, afterCohortRules, survey rules).", .array(.string()))),
            .init("fullInstructions", .described("False leaves out the fullInstructionsOnly steps (abbreviated instructions); true when absent.", .boolean)),
        ], required: [])
    }
}
