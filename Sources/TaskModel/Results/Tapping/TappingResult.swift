public import Foundation

/// The tapping step's result from the front end, MotorControl's `MCTTappingResultObject`:
/// `{type: "tapping", identifier, startDate, endDate, viewSize, buttonRectLeft,
/// buttonRectRight, tapCount, samples}` (docs/protocol.md, "Results from the front end").
public struct TappingResult: ResultData, Hashable {
    public var identifier: String
    public var startDate: Date
    public var endDate: Date
    public var viewSize: TappingSize
    public var buttonRectLeft: TappingRect
    public var buttonRectRight: TappingRect
    /// Hits on alternating buttons.
    public var tapCount: Int
    public var samples: [TappingSample]?

    public var resultType: ResultType { .tapping }

    public init(identifier: String, startDate: Date, endDate: Date, viewSize: TappingSize, buttonRectLeft: TappingRect,
                buttonRectRight: TappingRect, tapCount: Int, samples: [TappingSample]?) {
        self.identifier = identifier
        self.startDate = startDate
        self.endDate = endDate
        self.viewSize = viewSize
        self.buttonRectLeft = buttonRectLeft
        self.buttonRectRight = buttonRectRight
        self.tapCount = tapCount
        self.samples = samples
    }

    private enum CodingKeys: String, CodingKey {
        case type, identifier, startDate, endDate, viewSize, buttonRectLeft, buttonRectRight, tapCount, samples
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(ResultType.self, forKey: .type)
        guard type == .tapping else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "A tapping result has type \"tapping\", not \"\(type.rawValue)\".")
        }
        identifier = try container.decode(String.self, forKey: .identifier)
        startDate = try container.decode(Date.self, forKey: .startDate)
        endDate = try container.decode(Date.self, forKey: .endDate)
        viewSize = try container.decodeIfPresent(TappingSize.self, forKey: .viewSize) ?? TappingSize(width: 0, height: 0)
        buttonRectLeft = try container.decodeIfPresent(TappingRect.self, forKey: .buttonRectLeft) ?? TappingRect(x: 0, y: 0, width: 0, height: 0)
        buttonRectRight = try container.decodeIfPresent(TappingRect.self, forKey: .buttonRectRight) ?? TappingRect(x: 0, y: 0, width: 0, height: 0)
        tapCount = try container.decodeIfPresent(Int.self, forKey: .tapCount) ?? 0
        samples = try container.decodeIfPresent([TappingSample].self, forKey: .samples)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(resultType, forKey: .type)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(endDate, forKey: .endDate)
        try container.encode(viewSize, forKey: .viewSize)
        try container.encode(buttonRectLeft, forKey: .buttonRectLeft)
        try container.encode(buttonRectRight, forKey: .buttonRectRight)
        try container.encode(tapCount, forKey: .tapCount)
        try container.encodeIfPresent(samples, forKey: .samples)
    }

    /// The archive file MotorControl writes the result to: `<hand>_<identifier>` when a
    /// section on `stepPath` (section identifiers joined by `/`) is named after a hand
    /// (`left_tapping`), else the identifier.
    public static func archiveFileName(identifier: String, stepPath: String?) -> String {
        let hands: Set<Substring> = ["left", "right", "both"]
        if let hand = stepPath?.split(separator: "/").first(where: { hands.contains($0) }) {
            return "\(hand)_\(identifier)"
        }
        return identifier
    }
}
