/// A string-valued name with well-known constants that stays open to any other value (step
/// types, result types, permissions, commands): unknown names decode and round-trip as written.
///
/// Coding is the raw string, through the standard library's `RawRepresentable` conformance.
public protocol ExtensibleName: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension ExtensibleName {
    public var description: String { rawValue }
}
