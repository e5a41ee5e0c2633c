public import TaskModel
/// A JSON-RPC 2.0 request (with an `id`) or client notification (without one).
///
/// `params` stays as JSON here: the method catalogue decodes it into the method's own type, so
/// that a wrong parameter is reported as `-32602` with its coding path rather than as a bad request.
public struct JSONRPCRequest: Sendable, Hashable, Codable {
    /// Always `"2.0"`.
    public var jsonrpc: String
    /// Absent for a notification, which gets no response.
    public var id: JSONRPCID?
    public var method: String
    /// An object (by-name parameters) or absent.
    public var params: JSONValue?

    public init(id: JSONRPCID?, method: String, params: JSONValue? = nil) {
        self.jsonrpc = JSONRPC.version
        self.id = id
        self.method = method
        self.params = params
    }
}

/// Constants of JSON-RPC 2.0.
public enum JSONRPC {
    /// The value of every message's `jsonrpc` member.
    public static let version = "2.0"
}
