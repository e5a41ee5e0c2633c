public import Foundation

/// The result of a step that records nothing but its times: `{type: "base", identifier, startDate, endDate}`.
public struct BaseResult: NavigationResultData, Hashable {
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

    private enum CodingKeys: String, CodingKey {
        case type, identifier, startDate, endDate, skipToIdentifier
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        startDate = try container.decode(Date.self, forKey: .startDate)
        endDate = try container.decode(Date.self, forKey: .endDate)
        skipToIdentifier = try container.decodeIfPresent(String.self, forKey: .skipToIdentifier)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(resultType, forKey: .type)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(endDate, forKey: .endDate)
        try container.encodeIfPresent(skipToIdentifier, forKey: .skipToIdentifier)
    }
}
