/// A method declaration without its generic types: what the OpenRPC document, the server's
/// route table and the tests read.
public protocol ControlMethodDescribing: Sendable {
    /// The JSON-RPC method name.
    var name: String { get }
    /// One line for the OpenRPC document.
    var summary: String { get }
    /// The application errors the method may answer with.
    var errors: [ControlErrorCode] { get }
    /// The params type; `NoParams` for a method that takes none.
    var paramsType: any ControlParams.Type { get }
    /// The result type.
    var resultType: any ControlResult.Type { get }
}
