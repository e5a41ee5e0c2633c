import Clocks
public import TaskModel
import Synchronization

/// The one place a controller's status changes and its events are published: forward-only
/// moves, each stamped with the controller identifier, the uptime and a sequence number.
/// Thread-safe, so a capture or reader thread can publish a warning or progress without
/// waiting for the controller actor.
public final class AsyncActionStatusPublisher: Sendable {
    private struct State {
        var status: AsyncActionStatus = .idle
        var sequence: UInt64 = 0
        var isFinished = false
    }

    /// The identifier every event carries.
    public let identifier: String
    /// The events, in publication order; finishes after a final status.
    public let events: AsyncStream<AsyncActionEvent>
    private let continuation: AsyncStream<AsyncActionEvent>.Continuation
    private let state = Mutex(State())

    public init(identifier: String) {
        self.identifier = identifier
        (events, continuation) = AsyncStream.makeStream(of: AsyncActionEvent.self)
    }

    /// The current status.
    public var status: AsyncActionStatus { state.withLock { $0.status } }

    /// Moves to `next` if the lifecycle allows it and publishes it; returns whether it moved.
    @discardableResult
    public func move(to next: AsyncActionStatus) -> Bool {
        state.withLock { state in
            guard state.status.canMove(to: next) else { return false }
            state.status = next
            yield(.statusChanged(next), in: &state)
            if next.isFinal { finish(&state) }
            return true
        }
    }

    /// Publishes the error result, then the status `failed`. Does nothing once final.
    public func fail(with result: ErrorResult) {
        state.withLock { state in
            guard state.status.canMove(to: .failed) else { return }
            state.status = .failed
            yield(.failed(result), in: &state)
            yield(.statusChanged(.failed), in: &state)
            finish(&state)
        }
    }

    /// Publishes a non-fatal fact.
    public func warn(_ message: String) {
        state.withLock { yield(.warning(message), in: &$0) }
    }

    /// Publishes a live figure.
    public func progress(_ progress: AsyncActionProgress) {
        state.withLock { yield(.progress(progress), in: &$0) }
    }

    /// Events are yielded under the lock so that their order is the order of the calls,
    /// whichever thread made them (yield only enqueues; it never runs a consumer inline).
    private func yield(_ kind: AsyncActionEvent.Kind, in state: inout State) {
        guard !state.isFinished else { return }
        state.sequence += 1
        continuation.yield(AsyncActionEvent(identifier: identifier, uptime: RecordingClock.uptime(), sequence: state.sequence, kind: kind))
    }

    private func finish(_ state: inout State) {
        state.isFinished = true
        continuation.finish()
    }
}
