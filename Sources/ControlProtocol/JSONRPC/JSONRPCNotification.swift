/// A JSON-RPC 2.0 notification from the daemon: a request without an id that gets no reply.
/// The daemon sends one method, `event` (see `ControlEvent`).
public struct JSONRPCNotification<Params: Codable & Sendable>: Sendable, Codable {
    public var jsonrpc: String
    public var method: String
    public var params: Params

    public init(method: String, params: Params) {
        self.jsonrpc = JSONRPC.version
        self.method = method
        self.params = params
    }
}

extension JSONRPCNotification: Equatable where Params: Equatable {}
