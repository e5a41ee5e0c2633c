public import TaskModel

/// The result of a method, with the content descriptor the OpenRPC document gives it.
public protocol ControlResult: Codable, Sendable {
    /// The method's `result` in the OpenRPC document.
    static var contentDescriptor: JSONValue { get }

    /// The result's JSON.
    func jsonValue() throws -> JSONValue
}

extension ControlResult {
    public func jsonValue() throws -> JSONValue { try JSONValueEncoder.encode(self) }
}

extension ControlResult where Self: ControlSchemaDescribing {
    /// The type's schema under `components/schemas`, by reference.
    public static var contentDescriptor: JSONValue {
        ["name": .string(schemaName), "schema": JSONSchema.reference(schemaName).jsonValue]
    }
}
