public import Foundation

/// A step result carrying the front end's navigation choice: `{type: "navigation", identifier, startDate, endDate, skipToIdentifier}`.
public struct NavigationResult: TimedStepResult, Hashable {
    public var identifier: String
    public var startDate: Date
    public var endDate: Date
    public var skipToIdentifier: String?

    public var resultType: ResultType { .navigation }

    public init(identifier: String, startDate: Date, endDate: Date, skipToIdentifier: String? = nil) {
        self.identifier = identifier
        self.startDate = startDate
        self.endDate = endDate
        self.skipToIdentifier = skipToIdentifier
    }
}
