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
