public import Foundation

/// The answer to a question: `{type: "answer", identifier, startDate, endDate, answerType,
/// value, questionText}`; `answerType` and `value` are kept as written by the front end.
public struct AnswerResult: NavigationResultData, Hashable {
    public var identifier: String
    public var startDate: Date
    public var endDate: Date
    /// SageResearch's answer type object, for example `{"type": "integer"}`.
    public var answerType: JSONValue?
    public var value: JSONValue?
    public var questionText: String?
    public var skipToIdentifier: String?

    public var resultType: ResultType { .answer }

    public init(identifier: String, startDate: Date, endDate: Date, answerType: JSONValue? = nil,
                value: JSONValue? = nil, questionText: String? = nil, skipToIdentifier: String? = nil) {
        self.identifier = identifier
        self.startDate = startDate
        self.endDate = endDate
        self.answerType = answerType
        self.value = value
        self.questionText = questionText
        self.skipToIdentifier = skipToIdentifier
    }

    private enum CodingKeys: String, CodingKey {
        case type, identifier, startDate, endDate, answerType, value, questionText, skipToIdentifier
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        startDate = try container.decode(Date.self, forKey: .startDate)
        endDate = try container.decode(Date.self, forKey: .endDate)
        answerType = try container.decodeIfPresent(JSONValue.self, forKey: .answerType)
        value = try container.decodeIfPresent(JSONValue.self, forKey: .value)
        questionText = try container.decodeIfPresent(String.self, forKey: .questionText)
        skipToIdentifier = try container.decodeIfPresent(String.self, forKey: .skipToIdentifier)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(resultType, forKey: .type)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(endDate, forKey: .endDate)
        try container.encodeIfPresent(answerType, forKey: .answerType)
        try container.encodeIfPresent(value, forKey: .value)
        try container.encodeIfPresent(questionText, forKey: .questionText)
        try container.encodeIfPresent(skipToIdentifier, forKey: .skipToIdentifier)
    }
}
