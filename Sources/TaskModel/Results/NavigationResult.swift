public import Foundation

/// A step result carrying the front end's navigation choice. SageResearch 4 has no result type
/// of its own for it: it is encoded as the base result it wraps, `{type: "base", identifier,
/// startDate, endDate, skipToIdentifier}` (docs/runs.md). `type: "navigation"`, written by
/// older versions of this project, still decodes.
public struct NavigationResult: TimedStepResult, Hashable {
    public var identifier: String
    public var startDate: Date
    public var endDate: Date
    public var skipToIdentifier: String?

    public var resultType: ResultType { .base }

    public init(identifier: String, startDate: Date, endDate: Date, skipToIdentifier: String? = nil) {
        self.identifier = identifier
        self.startDate = startDate
        self.endDate = endDate
        self.skipToIdentifier = skipToIdentifier
    }
}
