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

/// The result of `rpc.discover`: the OpenRPC document itself.
public struct DiscoveryDocument: ControlResult, Hashable {
    public var document: JSONValue

    public init(_ document: JSONValue) {
        self.document = document
    }

    public init(from decoder: any Decoder) throws {
        document = try JSONValue(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try document.encode(to: encoder)
    }

    public func jsonValue() throws -> JSONValue { document }

    /// As the service discovery convention describes it.
    public static var contentDescriptor: JSONValue {
        ["name": "OpenRPC Schema", "schema": ["$ref": "https://meta.open-rpc.org/"]]
    }
}
