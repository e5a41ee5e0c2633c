package import ControlProtocol
package import Logging
package import NIOCore
import Synchronization

/// The open connections: their bounded outbound queues and event subscriptions.
///
/// Every message to a client goes through its queue; a client whose queue is full is
/// disconnected, so that nothing sent to it can ever wait on it.
package final class ControlConnectionRegistry: Sendable {
    /// One connection's outbound side.
    struct Connection: Sendable {
        var outbox: AsyncStream<ControlOutbound>.Continuation
        var channel: any Channel
        var peer: PeerCredentials
        /// nil: not subscribed; empty: every kind.
        var subscription: Set<ControlEventKind>?
    }

    private struct State {
        var nextIdentifier: UInt64 = 1
        var connections: [UInt64: Connection] = [:]
        var isClosed = false
    }

    private let state = Mutex(State())
    private let logger: Logger

    package init(logger: Logger) {
        self.logger = logger
    }

    /// Adds a connection; nil once the server is shutting down.
    package func add(outbox: AsyncStream<ControlOutbound>.Continuation, channel: any Channel,
                     peer: PeerCredentials) -> UInt64? {
        state.withLock { state in
            guard !state.isClosed else { return nil }
            let identifier = state.nextIdentifier
            state.nextIdentifier += 1
            state.connections[identifier] = Connection(outbox: outbox, channel: channel, peer: peer, subscription: nil)
            return identifier
        }
    }

    package func remove(_ identifier: UInt64) {
        let removed = state.withLock { $0.connections.removeValue(forKey: identifier) }
        removed?.outbox.finish()
    }

    package var count: Int { state.withLock { $0.connections.count } }

    /// Subscribes the connection to `kinds` (every kind when nil), or unsubscribes it.
    func setSubscription(_ identifier: UInt64, subscribed: Bool, kinds: [ControlEventKind]?) {
        state.withLock { state in
            state.connections[identifier]?.subscription = subscribed ? Set(kinds ?? []) : nil
        }
    }

    /// Queues `line` for one connection.
    func send(_ line: ControlOutbound, to identifier: UInt64) {
        guard let connection = state.withLock({ $0.connections[identifier] }) else { return }
        enqueue(line, identifier, connection)
    }

    /// Queues an event line for every connection subscribed to its kind.
    package func broadcast(_ line: ControlOutbound, kind: ControlEventKind) {
        let targets = state.withLock { state in
            state.connections.filter { _, connection in
                guard let subscription = connection.subscription else { return false }
                return subscription.isEmpty || subscription.contains(kind)
            }
        }
        for (identifier, connection) in targets {
            enqueue(line, identifier, connection)
        }
    }

    /// Refuses new connections and closes the open ones.
    func closeAll() {
        let connections = state.withLock { state in
            state.isClosed = true
            return state.connections.values
        }
        for connection in connections {
            connection.outbox.finish()
            connection.channel.close(promise: nil)
        }
    }

    private func enqueue(_ line: ControlOutbound, _ identifier: UInt64, _ connection: Connection) {
        if case .dropped = connection.outbox.yield(line) {
            logger.warning("Disconnecting a client that does not read: its outbound queue is full.", metadata: [
                "connection": "\(identifier)", "peer.pid": "\(connection.peer.pid)", "peer.uid": "\(connection.peer.uid)",
            ])
            remove(identifier)
            connection.channel.close(promise: nil)
        }
    }
}
