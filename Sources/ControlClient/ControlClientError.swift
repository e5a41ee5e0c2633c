public import ControlProtocol

/// Why a control-socket call failed.
public enum ControlClientError: Error, Sendable, CustomStringConvertible {
    /// The daemon answered with an error.
    case remote(ControlError)
    /// Nothing accepts connections at the socket path.
    case cannotConnect(socketPath: String, reason: String)
    /// The daemon closed the connection before answering.
    case connectionClosed
    /// The answer does not have the documented shape.
    case unexpectedAnswer(method: String, reason: String)

    public var description: String {
        switch self {
        case .remote(let error):
            "\(error.message) (error \(error.code.rawValue))"
        case .cannotConnect(let socketPath, let reason):
            "Cannot connect to activetaskd at \(socketPath): \(reason). Is the daemon running? Pass --socket or set ACTIVETASK_SOCKET if it listens elsewhere."
        case .connectionClosed:
            "activetaskd closed the connection before answering; see its log (journalctl -u activetaskd)."
        case .unexpectedAnswer(let method, let reason):
            "activetaskd answered \(method) with something this client cannot read: \(reason)"
        }
    }
}
