/// The params of a method that takes none: absent or `{}`.
public struct NoParams: Sendable, Hashable, Codable {
    public init() {}
}
