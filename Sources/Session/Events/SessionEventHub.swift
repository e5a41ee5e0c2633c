import Clocks
import Synchronization

/// Hands every session event to any number of subscribers, in order, each through a bounded
/// queue of its own: a subscriber that does not keep up loses its oldest events and is told how
/// many (`eventsLost`); publishing never waits for a subscriber.
public final class SessionEventHub: Sendable {
    private struct State {
        var nextSequence: UInt64 = 1
        var nextSubscriber = 0
        var subscribers: [Int: SessionEventQueue] = [:]
        var closed = false
    }

    private let state = Mutex(State())
    /// Events a subscriber may have waiting before the oldest are dropped.
    public let capacity: Int

    public init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
    }

    /// Numbers `kind`, stamps it with the uptime and delivers it to every subscriber.
    @discardableResult
    public func publish(_ kind: SessionEvent.Kind, uptime: Double? = nil) -> SessionEvent {
        state.withLock { state in
            let event = SessionEvent(sequence: state.nextSequence, uptime: uptime ?? RecordingClock.uptime(), kind: kind)
            state.nextSequence += 1
            // Under the lock so that every subscriber sees the same order.
            for queue in state.subscribers.values { queue.push(event) }
            return event
        }
    }

    /// The sequence of the last event published; 0 before the first.
    public var lastSequence: UInt64 {
        state.withLock { $0.nextSequence - 1 }
    }

    /// A new subscription, starting with the next event published.
    public func subscribe() -> SessionEvents {
        let queue = SessionEventQueue(capacity: capacity)
        let id: Int? = state.withLock { state in
            guard !state.closed else { return nil }
            defer { state.nextSubscriber += 1 }
            state.subscribers[state.nextSubscriber] = queue
            return state.nextSubscriber
        }
        guard let id else {
            queue.finish()
            return SessionEvents(queue: queue, onTermination: {})
        }
        return SessionEvents(queue: queue, onTermination: { [weak self] in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        })
    }

    /// Ends every subscription after the events already queued.
    public func finish() {
        let queues = state.withLock { state in
            state.closed = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for queue in queues { queue.finish() }
    }
}

/// The events of one subscriber, as an async sequence.
public struct SessionEvents: AsyncSequence, Sendable {
    public typealias Element = SessionEvent
    let queue: SessionEventQueue
    let onTermination: @Sendable () -> Void

    public struct AsyncIterator: AsyncIteratorProtocol {
        let queue: SessionEventQueue
        public mutating func next() async -> SessionEvent? { await queue.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(queue: queue) }

    /// Stops this subscription; the hub forgets it.
    public func cancel() {
        queue.finish()
        onTermination()
    }
}
