public import TaskModel
/// The `error` member of a JSON-RPC 2.0 response.
public struct JSONRPCErrorObject: Sendable, Hashable, Codable {
    public var code: Int
    /// One sentence saying what went wrong and what to do.
    public var message: String
    /// Structured details (see `ControlErrorData`).
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }
}
