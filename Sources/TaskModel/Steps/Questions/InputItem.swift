/// One input field of a question (SageResearch's input item objects, `inputItem` /
/// `inputItems[]`), with what the daemon checks an answer against.
public struct InputItem: Sendable, Hashable {
    /// The `type` key.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case string, integer, decimal, year
        case dateTime = "date-time"
        case date, time, choicePicker, stringChoicePicker, checkbox, height, weight
    }

    /// Inclusive bounds of a number (`formatOptions` `minimumValue`/`maximumValue`, or a year's
    /// `minimumYear`/`maximumYear` with `allowPast`/`allowFuture`).
    public struct NumberRange: Sendable, Hashable {
        public var minimum: Double?
        public var maximum: Double?
        /// A year's `allowPast: false` / `allowFuture: false`: bounded by the current year.
        public var allowPast = true
        public var allowFuture = true
        public init(minimum: Double? = nil, maximum: Double? = nil, allowPast: Bool = true, allowFuture: Bool = true) {
            self.minimum = minimum
            self.maximum = maximum
            self.allowPast = allowPast
            self.allowFuture = allowFuture
        }
    }

    /// The bounds of a date item (`formatOptions`: `minimumValue`/`maximumValue` in the coding
    /// format, `allowPast`/`allowFuture`).
    public struct DateRange: Sendable, Hashable {
        public var minimum: String?
        public var maximum: String?
        public var allowPast = true
        public var allowFuture = true
        public init(minimum: String? = nil, maximum: String? = nil, allowPast: Bool = true, allowFuture: Bool = true) {
            self.minimum = minimum
            self.maximum = maximum
            self.allowPast = allowPast
            self.allowFuture = allowFuture
        }
    }

    public var kind: Kind
    public var identifier: String?
    public var fieldLabel: String?
    /// Selecting it deselects the other items.
    public var isExclusive: Bool
    public var numberRange: NumberRange?
    public var dateRange: DateRange?
    /// A string item's `regExValidator.pattern`: the text must match it exactly once.
    public var pattern: String?
    /// The message `regExValidator.invalidMessage` gives when the pattern does not match.
    public var invalidMessage: String?
    /// The choices of a picker.
    public var choices: [QuestionChoice]
    /// A date item's `formatOptions.codingFormat`, else the default of its kind.
    public var codingFormat: String?

    public init(kind: Kind, identifier: String? = nil, fieldLabel: String? = nil, isExclusive: Bool = false,
                numberRange: NumberRange? = nil, dateRange: DateRange? = nil, pattern: String? = nil,
                invalidMessage: String? = nil, choices: [QuestionChoice] = [], codingFormat: String? = nil) {
        self.kind = kind
        self.identifier = identifier
        self.fieldLabel = fieldLabel
        self.isExclusive = isExclusive
        self.numberRange = numberRange
        self.dateRange = dateRange
        self.pattern = pattern
        self.invalidMessage = invalidMessage
        self.choices = choices
        self.codingFormat = codingFormat
    }

    /// The date format answers of a date item are written in.
    public var effectiveCodingFormat: String {
        if let codingFormat { return codingFormat }
        switch kind {
        case .date: return DateCoding.dateFormat
        case .time: return DateCoding.timeFormat
        default: return DateCoding.timestampFormat
        }
    }

    /// The type of this item's answer, as SageResearch's input items declare it (a `time`
    /// item is typed `date-time` too).
    public var answerType: AnswerType {
        switch kind {
        case .string, .stringChoicePicker: .string
        case .integer, .year: .integer
        case .decimal: .number
        case .dateTime, .date, .time: .dateTime(codingFormat: effectiveCodingFormat)
        case .checkbox: .boolean
        case .height: .measurement(unit: "cm")
        case .weight: .measurement(unit: "kg")
        case .choicePicker: choices.lazy.compactMap(\.value).first.map { AnswerType($0.baseType) } ?? .string
        }
    }
}

extension JSONValue {
    /// The JSON type of this value as SageResearch names it (an integer is `integer`).
    public var baseType: AnswerType.BaseType {
        switch self {
        case .null: .null
        case .bool: .boolean
        case .integer: .integer
        case .number: .number
        case .string: .string
        case .array, .object: .object
        }
    }
}
