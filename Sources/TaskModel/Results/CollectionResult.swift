public import Foundation

/// The results of a step with several parts (a form): `{type: "collection", identifier,
/// startDate, endDate, children}`.
public struct CollectionResult: NavigationResultData {
    public var identifier: String
    public var startDate: Date
    public var endDate: Date
    public var children: [AnyResult]
    public var skipToIdentifier: String?

    public var resultType: ResultType { .collection }

    public init(identifier: String, startDate: Date, endDate: Date, children: [AnyResult] = [], skipToIdentifier: String? = nil) {
        self.identifier = identifier
        self.startDate = startDate
        self.endDate = endDate
        self.children = children
        self.skipToIdentifier = skipToIdentifier
    }

    private enum CodingKeys: String, CodingKey {
        case type, identifier, startDate, endDate, children, skipToIdentifier
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        startDate = try container.decode(Date.self, forKey: .startDate)
        endDate = try container.decode(Date.self, forKey: .endDate)
        children = try container.decodeIfPresent([AnyResult].self, forKey: .children) ?? []
        skipToIdentifier = try container.decodeIfPresent(String.self, forKey: .skipToIdentifier)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(resultType, forKey: .type)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(endDate, forKey: .endDate)
        try container.encode(children, forKey: .children)
        try container.encodeIfPresent(skipToIdentifier, forKey: .skipToIdentifier)
    }
}
