public import Foundation

/// A step result holding only its times and an optional navigation choice; base and navigation
/// results share this shape and its coding, told apart by `type`.
public protocol TimedStepResult: NavigationResultData {
    init(identifier: String, startDate: Date, endDate: Date, skipToIdentifier: String?)
}

private enum TimedStepResultKeys: String, CodingKey {
    case type, identifier, startDate, endDate, skipToIdentifier
}

extension TimedStepResult {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TimedStepResultKeys.self)
        self.init(
            identifier: try container.decode(String.self, forKey: .identifier),
            startDate: try container.decode(Date.self, forKey: .startDate),
            endDate: try container.decode(Date.self, forKey: .endDate),
            skipToIdentifier: try container.decodeIfPresent(String.self, forKey: .skipToIdentifier))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TimedStepResultKeys.self)
        try container.encode(resultType, forKey: .type)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(endDate, forKey: .endDate)
        try container.encodeIfPresent(skipToIdentifier, forKey: .skipToIdentifier)
    }
}
