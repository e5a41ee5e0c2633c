public import TaskModel

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
