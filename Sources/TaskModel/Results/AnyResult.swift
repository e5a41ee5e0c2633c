/// Any result, decoded by its `type` through `AnyResult.decoders` so result trees round-trip:
/// `task`, `section`, `base`, `answer`, `collection`, `navigation`, `file`, `error`, `tapping`.
public struct AnyResult: Codable, Sendable {
    /// Decodes one result whose `type` matched.
    public typealias Decoder = @Sendable (any Swift.Decoder) throws -> any ResultData

    /// The built-in result types.
    public static let decoders: [ResultType: Decoder] = [
        .task: { try TaskResult(from: $0) },
        .section: { try SectionResult(from: $0) },
        .base: { try BaseResult(from: $0) },
        .answer: { try AnswerResult(from: $0) },
        .collection: { try CollectionResult(from: $0) },
        .navigation: { try NavigationResult(from: $0) },
        .file: { try FileResult(from: $0) },
        .error: { try ErrorResult(from: $0) },
        .tapping: { try TappingResult(from: $0) },
    ]

    public var result: any ResultData

    public init(_ result: any ResultData) {
        self.result = result
    }

    private enum CodingKeys: String, CodingKey { case type }

    public init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(ResultType.self, forKey: .type)
        guard let decode = Self.decoders[type] else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription: "Unknown result type \"\(type.rawValue)\"; expected one of \(Self.decoders.keys.map(\.rawValue).sorted().joined(separator: ", ")).")
        }
        result = try decode(decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try result.encode(to: encoder)
    }

    /// The `skipToIdentifier` of the wrapped result, when it can carry one.
    public var skipToIdentifier: String? {
        (result as? any NavigationResultData)?.skipToIdentifier
    }
}
