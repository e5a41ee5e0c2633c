public import TaskModel
/// A JSON-RPC 2.0 response: the request's id with either a result or an error.
///
/// `id` is null when the request could not be read far enough to know it (a parse error).
public struct JSONRPCResponse: Sendable, Hashable, Codable {
    /// The result or the error; exactly one of the two is on the wire.
    public enum Outcome: Sendable, Hashable {
        case result(JSONValue)
        case error(JSONRPCErrorObject)
    }

    public var jsonrpc: String
    public var id: JSONRPCID?
    public var outcome: Outcome

    public init(id: JSONRPCID?, outcome: Outcome) {
        self.jsonrpc = JSONRPC.version
        self.id = id
        self.outcome = outcome
    }

    public init(id: JSONRPCID?, result: JSONValue) {
        self.init(id: id, outcome: .result(result))
    }

    public init(id: JSONRPCID?, error: JSONRPCErrorObject) {
        self.init(id: id, outcome: .error(error))
    }

    private enum CodingKeys: String, CodingKey {
        case jsonrpc, id, result, error
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        jsonrpc = try container.decode(String.self, forKey: .jsonrpc)
        id = try container.decodeIfPresent(JSONRPCID.self, forKey: .id)
        if let error = try container.decodeIfPresent(JSONRPCErrorObject.self, forKey: .error) {
            outcome = .error(error)
        } else if container.contains(.result) {
            outcome = .result(try container.decode(JSONValue.self, forKey: .result))
        } else {
            throw DecodingError.keyNotFound(
                CodingKeys.result,
                .init(codingPath: container.codingPath, debugDescription: "A response has a result or an error."))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(jsonrpc, forKey: .jsonrpc)
        // The id member is required in a response; null when the request's id is unknown.
        if let id { try container.encode(id, forKey: .id) } else { try container.encodeNil(forKey: .id) }
        switch outcome {
        case .result(let result): try container.encode(result, forKey: .result)
        case .error(let error): try container.encode(error, forKey: .error)
        }
    }
}
