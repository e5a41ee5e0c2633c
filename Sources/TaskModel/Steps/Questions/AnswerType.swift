/// SageResearch's answer type (JsonModel's `AnswerType`): how an answer's value is typed, written
/// as the answer result's `answerType` object and used to compare it with survey rules.
public enum AnswerType: Sendable, Hashable {
    /// The JSON type of an answer or of an array's elements.
    public enum BaseType: String, Sendable, Hashable, CaseIterable {
        case string, integer, number, boolean, object, null
    }

    case string
    case integer
    case number
    case boolean
    case object
    case null
    /// A multiple-choice answer: an array of `baseType` values.
    case array(BaseType)
    /// A date, time or date and time written as text in `codingFormat`.
    case dateTime(codingFormat: String)
    /// A length or mass in the base `unit` (`cm`, `kg`).
    case measurement(unit: String)

    /// The answer type of a single value of `baseType`.
    public init(_ baseType: BaseType) {
        switch baseType {
        case .string: self = .string
        case .integer: self = .integer
        case .number: self = .number
        case .boolean: self = .boolean
        case .object: self = .object
        case .null: self = .null
        }
    }

    /// The `answerType` object of an answer result.
    public var json: JSONValue {
        switch self {
        case .string: .object(["type": .string("string")])
        case .integer: .object(["type": .string("integer")])
        case .number: .object(["type": .string("number")])
        case .boolean: .object(["type": .string("boolean")])
        case .object: .object(["type": .string("object")])
        case .null: .object(["type": .string("null")])
        case .array(let base): .object(["type": .string("array"), "baseType": .string(base.rawValue)])
        case .dateTime(let format): .object(["type": .string("date-time"), "codingFormat": .string(format)])
        case .measurement(let unit): .object(["type": .string("measurement"), "unit": .string(unit)])
        }
    }

    /// The answer type an `answerType` object names; nil for one the daemon does not know.
    /// `time` compares as text and `duration` as a number, as JsonModel types them.
    public init?(json: JSONValue) {
        guard let type = json["type"]?.stringValue else { return nil }
        switch type {
        case "string", "time": self = .string
        case "integer": self = .integer
        case "number", "duration": self = .number
        case "boolean": self = .boolean
        case "object": self = .object
        case "null": self = .null
        case "array":
            guard let base = BaseType(rawValue: json["baseType"]?.stringValue ?? "string") else { return nil }
            self = .array(base)
        case "date-time": self = .dateTime(codingFormat: json["codingFormat"]?.stringValue ?? DateCoding.timestampFormat)
        case "measurement": self = .measurement(unit: json["unit"]?.stringValue ?? "")
        default: return nil
        }
    }
}
