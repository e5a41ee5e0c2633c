public import Foundation

/// The result of a section: `{type: "section", identifier, startDate, endDate, stepHistory,
/// asyncResults}`, with the results of its own steps and of the async actions it declares.
public struct SectionResult: NavigationResultData {
    public var identifier: String
    public var startDate: Date
    public var endDate: Date
    public var stepHistory: [AnyResult]
    public var asyncResults: [AnyResult]
    public var skipToIdentifier: String?

    public var resultType: ResultType { .section }

    public init(identifier: String, startDate: Date, endDate: Date, stepHistory: [AnyResult] = [],
                asyncResults: [AnyResult] = [], skipToIdentifier: String? = nil) {
        self.identifier = identifier
        self.startDate = startDate
        self.endDate = endDate
        self.stepHistory = stepHistory
        self.asyncResults = asyncResults
        self.skipToIdentifier = skipToIdentifier
    }

    private enum CodingKeys: String, CodingKey {
        case type, identifier, startDate, endDate, stepHistory, asyncResults, skipToIdentifier
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        startDate = try container.decode(Date.self, forKey: .startDate)
        endDate = try container.decode(Date.self, forKey: .endDate)
        stepHistory = try container.decodeIfPresent([AnyResult].self, forKey: .stepHistory) ?? []
        asyncResults = try container.decodeIfPresent([AnyResult].self, forKey: .asyncResults) ?? []
        skipToIdentifier = try container.decodeIfPresent(String.self, forKey: .skipToIdentifier)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(resultType, forKey: .type)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(endDate, forKey: .endDate)
        try container.encode(stepHistory, forKey: .stepHistory)
        try container.encode(asyncResults, forKey: .asyncResults)
        try container.encodeIfPresent(skipToIdentifier, forKey: .skipToIdentifier)
    }
}
