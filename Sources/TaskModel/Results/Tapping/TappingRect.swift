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
