import Clocks
import Synchronization

/// One subscriber's bounded event queue: the oldest events go when it is full, and the next
/// event read is preceded by an `eventsLost` event with the count.
final class SessionEventQueue: Sendable {
    private struct State {
        var buffer: [SessionEvent] = []
        var head = 0
        var lost: UInt64 = 0
        var finished = false
        var waiter: CheckedContinuation<SessionEvent?, Never>?
    }

    private let state = Mutex(State())
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    func push(_ event: SessionEvent) {
        let waiter: CheckedContinuation<SessionEvent?, Never>? = state.withLock { state in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if state.buffer.count - state.head >= capacity {
                state.head += 1
                state.lost += 1
            }
            state.buffer.append(event)
            // Compact now and then so the array does not grow without bound.
            if state.head > 256, state.head * 2 > state.buffer.count {
                state.buffer.removeFirst(state.head)
                state.head = 0
            }
            return nil
        }
        waiter?.resume(returning: event)
    }

    func finish() {
        let waiter: CheckedContinuation<SessionEvent?, Never>? = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    func next() async -> SessionEvent? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<SessionEvent?, Never>) in
                let ready: SessionEvent?? = state.withLock { state in
                    if state.lost > 0 {
                        let first = state.buffer[state.head]
                        let lost = state.lost
                        state.lost = 0
                        return .some(SessionEvent(sequence: first.sequence - 1, uptime: first.uptime, kind: .eventsLost(count: lost)))
                    }
                    if state.head < state.buffer.count {
                        defer { state.head += 1 }
                        return .some(state.buffer[state.head])
                    }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            // Only this wait ends; the subscription stays for the next reader.
            let waiter: CheckedContinuation<SessionEvent?, Never>? = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }
}
