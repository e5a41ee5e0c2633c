public import Foundation

/// A failure recorded in place of a result, such as a recorder that lost its device.
///
/// Encodes as `{type: "error", identifier, startDate, endDate, errorDescription, errorDomain,
/// errorCode}`. A failed async action records one as `<identifier>_error`.
public struct ErrorResult: ResultData, Hashable {
    public var identifier: String
    public var startDate: Date
    public var endDate: Date
    public var errorDescription: String
    public var errorDomain: String
    public var errorCode: Int

    public var resultType: ResultType { .error }

    public init(
        identifier: String, startDate: Date, endDate: Date,
        errorDescription: String, errorDomain: String, errorCode: Int
    ) {
        self.identifier = identifier
        self.startDate = startDate
        self.endDate = endDate
        self.errorDescription = errorDescription
        self.errorDomain = errorDomain
        self.errorCode = errorCode
    }

    private enum CodingKeys: String, CodingKey {
        case type, identifier, startDate, endDate, errorDescription, errorDomain, errorCode
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        startDate = try container.decode(Date.self, forKey: .startDate)
        endDate = try container.decode(Date.self, forKey: .endDate)
        errorDescription = try container.decode(String.self, forKey: .errorDescription)
        errorDomain = try container.decode(String.self, forKey: .errorDomain)
        errorCode = try container.decode(Int.self, forKey: .errorCode)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(resultType, forKey: .type)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(endDate, forKey: .endDate)
        try container.encode(errorDescription, forKey: .errorDescription)
        try container.encode(errorDomain, forKey: .errorDomain)
        try container.encode(errorCode, forKey: .errorCode)
    }
}
