import AsyncActions
import TaskModel
import Synchronization

/// The one place a recorder's status changes: forward-only moves, each published as an event.
/// Shared by the controller actor and its capture thread (which reports a device failure
/// without waiting for the actor).
final class StatusPublisher: Sendable {
    private let current: Mutex<AsyncActionStatus>
    let identifier: String
    let continuation: AsyncStream<AsyncActionEvent>.Continuation

    init(identifier: String, continuation: AsyncStream<AsyncActionEvent>.Continuation) {
        self.identifier = identifier
        self.continuation = continuation
        current = Mutex(.idle)
    }

    var status: AsyncActionStatus { current.withLock { $0 } }

    /// Moves to `next` if the lifecycle allows it; returns whether it moved.
    @discardableResult
    func move(to next: AsyncActionStatus) -> Bool {
        // Events are yielded under the lock so that their order is the order of the moves,
        // whichever thread made them (yield only enqueues; it never runs a consumer inline).
        current.withLock { status in
            guard status.canMove(to: next) else { return false }
            status = next
            continuation.yield(.statusChanged(identifier: identifier, status: next))
            if next.isFinal { continuation.finish() }
            return true
        }
    }

    /// Records a failure: publishes the error result, then moves to `failed`. Does nothing once
    /// the controller has already reached a final status.
    func fail(with result: ErrorResult) {
        current.withLock { status in
            guard status.canMove(to: .failed) else { return }
            status = .failed
            continuation.yield(.failed(identifier: identifier, result: result))
            continuation.yield(.statusChanged(identifier: identifier, status: .failed))
            continuation.finish()
        }
    }

    /// Publishes a non-fatal fact.
    func warn(_ message: String) {
        continuation.yield(.warning(identifier: identifier, message: message))
    }
}
