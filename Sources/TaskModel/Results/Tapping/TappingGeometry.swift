/// A size and a rectangle as MotorControl writes them (`"{w, h}"`, `"{{x, y}, {w, h}}"`):
/// numbers in points, origin top left. Decoding strips the braces and splits on commas.
public enum TappingGeometry {
    /// `"{320.0, 640.0}"`.
    public static func text(_ numbers: [Double]) -> String {
        switch numbers.count {
        case 4: "{{\(numbers[0]), \(numbers[1])}, {\(numbers[2]), \(numbers[3])}}"
        default: "{" + numbers.map { "\($0)" }.joined(separator: ", ") + "}"
        }
    }

    /// The numbers of a geometry string; nil when one is not a number or their count is not `count`.
    public static func numbers(_ text: String, count: Int) -> [Double]? {
        let parts = text.split(separator: ",").map { part in
            part.filter { $0 != "{" && $0 != "}" && $0 != " " }
        }
        let numbers = parts.compactMap { Double($0) }
        guard numbers.count == count, parts.count == count else { return nil }
        return numbers
    }
}

/// The size of the tapping step's view (`viewSize`).
public struct TappingSize: Sendable, Hashable, Codable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let numbers = TappingGeometry.numbers(try container.decode(String.self), count: 2) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "A size is written \"{width, height}\", e.g. \"{320.0, 640.0}\".")
        }
        self.init(width: numbers[0], height: numbers[1])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(TappingGeometry.text([width, height]))
    }
}

/// A button's frame in the tapping step's view (`buttonRectLeft`, `buttonRectRight`).
public struct TappingRect: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let numbers = TappingGeometry.numbers(try container.decode(String.self), count: 4) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "A rectangle is written \"{{x, y}, {width, height}}\", e.g. \"{{60.0, 500.0}, {40.0, 40.0}}\".")
        }
        self.init(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(TappingGeometry.text([x, y, width, height]))
    }
}
