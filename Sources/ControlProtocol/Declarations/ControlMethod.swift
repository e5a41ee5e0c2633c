public import TaskModel

/// One method of the control socket, declared once: its name, the params it takes, the result it
/// answers, the application errors it may answer with and the line the OpenRPC document shows.
///
/// The server's decoding, `rpc.discover` (docs/openrpc.json) and the client's typed call all
/// derive from the declaration; the declarations are `ControlMethods`, and the daemon registers
/// one handler for each (docs/protocol.md, "Adding a method").
public struct ControlMethod<Params: ControlParams, Result: ControlResult>: ControlMethodDescribing {
    /// The JSON-RPC method name, e.g. `run.forward`.
    public let name: String
    /// One line for the OpenRPC document.
    public let summary: String
    /// The application errors the method may answer with (JSON-RPC's own codes apply to all).
    public let errors: [ControlErrorCode]

    public init(_ name: String, summary: String, errors: [ControlErrorCode] = []) {
        self.name = name
        self.summary = summary
        self.errors = errors
    }

    public var paramsType: any ControlParams.Type { Params.self }
    public var resultType: any ControlResult.Type { Result.self }

    /// Decodes a request's params; throws `invalidParams` naming the coding path and this method
    /// when they do not fit.
    public func decodeParams(_ params: JSONValue?) throws(ControlError) -> Params {
        try Params.decode(params, for: name)
    }

    /// The params as a request carries them; nil leaves them out.
    public func requestParams(_ params: Params) throws -> JSONValue? {
        try params.requestParams()
    }

    /// The result's JSON (written directly, without Foundation's JSON text in between).
    public func encodeResult(_ result: Result) throws(ControlError) -> JSONValue {
        do {
            return try result.jsonValue()
        } catch {
            throw ControlError(.internalError, "The answer to \(name) could not be encoded: \(error).")
        }
    }

    /// Reads a response's result.
    public func decodeResult(_ value: JSONValue) throws -> Result {
        try value.decode(Result.self)
    }
}
