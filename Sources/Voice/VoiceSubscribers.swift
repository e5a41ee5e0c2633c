import Synchronization

/// The prompter's subscribers: each has a stream of its own, so one subscriber going away (its
/// stream finished or its consumer cancelled) never ends what the others, or later ones, hear.
/// Shared with the playback thread's callbacks, hence a mutex rather than the actor.
final class VoiceSubscribers: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var sinks: [UInt64: @Sendable (VoiceEvent) -> Void] = [:]
        var finishers: [UInt64: @Sendable () -> Void] = [:]
        var finished = false
    }

    private let state = Mutex(State())

    /// The events a subscriber that does not read keeps, newest first.
    static let bufferLimit = 256

    /// A new stream of the events from now on, each passed through `transform` (nil drops it).
    /// The stream ends with `finishAll()`; a subscriber that stops listening is removed.
    func subscribe<Element: Sendable>(_ transform: @escaping @Sendable (VoiceEvent) -> Element?) -> AsyncStream<Element> {
        // Bounded: a subscriber that never reads (a session made and dropped before it ran)
        // holds a few events, never a growing backlog.
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(Self.bufferLimit))
        let id: UInt64? = state.withLock { state in
            guard !state.finished else { return nil }
            let id = state.nextID
            state.nextID &+= 1
            state.sinks[id] = { event in
                if let element = transform(event) { continuation.yield(element) }
            }
            state.finishers[id] = { continuation.finish() }
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    /// Hands `event` to every subscriber.
    func yield(_ event: VoiceEvent) {
        let sinks = state.withLock { Array($0.sinks.values) }
        for sink in sinks { sink(event) }
    }

    /// Ends every subscriber's stream; later subscribers get a finished stream.
    func finishAll() {
        let finishers = state.withLock { state in
            state.finished = true
            let finishers = Array(state.finishers.values)
            state.sinks = [:]
            state.finishers = [:]
            return finishers
        }
        for finish in finishers { finish() }
    }

    /// How many subscribers listen now.
    var count: Int { state.withLock { $0.sinks.count } }

    private func remove(_ id: UInt64) {
        state.withLock { state in
            state.sinks[id] = nil
            state.finishers[id] = nil
        }
    }
}
