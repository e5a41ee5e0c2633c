/// The configuration table mapping custom type names onto built-in ones:
/// `{"typeAliases": {"handInstruction": "instruction", "tapping": "active"}}`.
///
/// A target may be a built-in step kind (`instruction`, `active`, `section`, …), a task type
/// (`assessment`, making the alias a task type) or an async action type already registered.
public struct TypeAliasTable: Codable, Sendable, Hashable {
    /// Custom type name → the built-in type it behaves as.
    public var typeAliases: [String: String]

    public init(typeAliases: [String: String] = [:]) {
        self.typeAliases = typeAliases
    }

    private enum CodingKeys: String, CodingKey { case typeAliases }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        typeAliases = try container.decodeIfPresent([String: String].self, forKey: .typeAliases) ?? [:]
    }
}
