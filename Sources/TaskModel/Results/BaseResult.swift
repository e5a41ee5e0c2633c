public import Foundation

/// The result of a step that records nothing but its times: `{type: "base", identifier, startDate, endDate}`.
public struct BaseResult: TimedStepResult, Hashable {
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
