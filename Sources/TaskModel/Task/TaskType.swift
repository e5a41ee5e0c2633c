/// The `type` of a task exactly as written (`assessment`, `motorControlTask`, …).
public struct TaskType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// SageResearch's base task type; every task alias behaves as this.
    public static let assessment = TaskType(rawValue: "assessment")

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
