/// Who sent a request: what a handler may need beyond the params.
public struct ControlRequestContext: Sendable {
    /// The connection, as the server numbers them (1, 2, …).
    public var connection: UInt64
    /// The client process, from SO_PEERCRED.
    public var peer: PeerCredentials

    public init(connection: UInt64, peer: PeerCredentials) {
        self.connection = connection
        self.peer = peer
    }
}
