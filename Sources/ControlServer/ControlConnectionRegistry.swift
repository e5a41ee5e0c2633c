package import ControlProtocol
package import Logging
package import NIOCore
import Synchronization

/// The open connections: their bounded outbound queues and event subscriptions.
///
/// Answers go through the connection's queue, drained by its task. Events are written straight
/// to every subscribed connection's channel by the one task that broadcasts them (their line
/// encoded once, the same buffer for all), so the last of 32 subscribers gets an event as soon
/// as the first, without a task hop per client (docs/benchmarks.md, "Event fan-out"). Either way
/// a client with more messages unwritten than the limit is disconnected, so that nothing sent to
/// it can ever wait on it.
package final class ControlConnectionRegistry: Sendable {
    /// One connection's outbound side.
    struct Connection: Sendable {
        var outbox: AsyncStream<ControlOutbound>.Continuation
        var channel: any Channel
        var peer: PeerCredentials
        /// nil: not subscribed; empty: every kind.
        var subscription: Set<ControlEventKind>?
        /// Event lines handed to the channel and not yet written to its socket.
        var unwrittenEvents: UnwrittenCount
        /// The most event lines left unwritten before the client is disconnected.
        var eventLimit: Int
    }

    /// A count shared by the broadcasting task and the channel's event loop.
    final class UnwrittenCount: Sendable {
        private let value = Atomic<Int>(0)

        /// Counts one more; false, counting nothing, when `limit` are already unwritten.
        func reserve(limit: Int) -> Bool {
            while true {
                let current = value.load(ordering: .relaxed)
                guard current < limit else { return false }
                if value.compareExchange(expected: current, desired: current + 1, ordering: .relaxed).exchanged {
                    return true
                }
            }
        }

        func release() {
            value.subtract(1, ordering: .relaxed)
        }
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
    /// - Parameter eventLimit: the most event lines left unwritten to its socket before the
    ///   client is disconnected for not reading (the server's outbound queue limit).
    package func add(outbox: AsyncStream<ControlOutbound>.Continuation, channel: any Channel,
                     peer: PeerCredentials, eventLimit: Int) -> UInt64? {
        state.withLock { state in
            guard !state.isClosed else { return nil }
            let identifier = state.nextIdentifier
            state.nextIdentifier += 1
            state.connections[identifier] = Connection(
                outbox: outbox, channel: channel, peer: peer, subscription: nil,
                unwrittenEvents: UnwrittenCount(), eventLimit: eventLimit)
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

    /// Writes an event line to every connection subscribed to its kind, without waiting for any.
    package func broadcast(_ line: NIOCore.ByteBuffer, kind: ControlEventKind) {
        let targets = state.withLock { state in
            state.connections.filter { _, connection in
                guard let subscription = connection.subscription else { return false }
                return subscription.isEmpty || subscription.contains(kind)
            }
        }
        for (identifier, connection) in targets {
            write(line, identifier, connection)
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
            disconnect(identifier, connection)
        }
    }

    /// Hands an event line to the channel's event loop: one `execute` per client, no await.
    private func write(_ line: NIOCore.ByteBuffer, _ identifier: UInt64, _ connection: Connection) {
        let unwritten = connection.unwrittenEvents
        guard unwritten.reserve(limit: connection.eventLimit) else {
            disconnect(identifier, connection)
            return
        }
        let written = connection.channel.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { _ in unwritten.release() }
        connection.channel.writeAndFlush(ControlOutbound.event(line), promise: written)
    }

    private func disconnect(_ identifier: UInt64, _ connection: Connection) {
        logger.warning("Disconnecting a client that does not read: its outbound queue is full.", metadata: [
            "connection": "\(identifier)", "peer.pid": "\(connection.peer.pid)", "peer.uid": "\(connection.peer.uid)",
        ])
        remove(identifier)
        connection.channel.close(promise: nil)
    }
}
