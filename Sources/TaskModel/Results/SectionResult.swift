public import Foundation

/// The result of a section (JsonModel's `BranchNodeResult`): `{type: "section", identifier,
/// startDate, endDate, stepHistory, asyncResults, path}`, with the results of its own steps and
/// of the async actions it declares. `endDate` and `asyncResults` follow `TaskResult`'s rules.
public struct SectionResult: NavigationResultData {
    public var identifier: String
    public var startDate: Date
    /// When the section ended; nil while it is open.
    public var endDateTime: Date?
    public var stepHistory: [AnyResult]
    public var asyncResults: [AnyResult]
    public var path: [PathMarker]
    public var skipToIdentifier: String?

    public var resultType: ResultType { .section }

    /// The end of the section, or its start while it is open (JsonModel's convention).
    public var endDate: Date {
        get { endDateTime ?? startDate }
        set { endDateTime = newValue }
    }

    public init(identifier: String, startDate: Date, endDate: Date? = nil, stepHistory: [AnyResult] = [],
                asyncResults: [AnyResult] = [], path: [PathMarker] = [], skipToIdentifier: String? = nil) {
        self.identifier = identifier
        self.startDate = startDate
        self.endDateTime = endDate
        self.stepHistory = stepHistory
        self.asyncResults = asyncResults
        self.path = path
        self.skipToIdentifier = skipToIdentifier
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: BranchResultKeys.self)
        let body = try BranchResultBody(from: container)
        self.init(identifier: try container.decode(String.self, forKey: .identifier),
                  startDate: body.startDate, endDate: body.endDateTime,
                  stepHistory: body.stepHistory, asyncResults: body.asyncResults, path: body.path,
                  skipToIdentifier: try container.decodeIfPresent(String.self, forKey: .skipToIdentifier))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: BranchResultKeys.self)
        try container.encode(resultType, forKey: .type)
        try container.encode(identifier, forKey: .identifier)
        try BranchResultBody(startDate: startDate, endDateTime: endDateTime, stepHistory: stepHistory,
                             asyncResults: asyncResults, path: path).encode(to: &container)
        try container.encodeIfPresent(skipToIdentifier, forKey: .skipToIdentifier)
    }
}
