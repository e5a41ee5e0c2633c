/// One figure of a check: a number or a short text, encoded as a plain JSON value.
public enum QualityFigure: Codable, Sendable, Hashable {
    case number(Double)
    case text(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value):
            // JSON has no NaN or infinity; a figure that is not finite is written as text.
            if value.isFinite { try container.encode(value) } else { try container.encode("\(value)") }
        case .text(let text): try container.encode(text)
        }
    }

    /// The number, when this figure is one.
    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The text, when this figure is one.
    public var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}

extension QualityFigure: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(stringLiteral value: String) { self = .text(value) }
}
