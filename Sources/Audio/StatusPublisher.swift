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
        let moved = current.withLock { status in
            guard status.canMove(to: next) else { return false }
            status = next
            return true
        }
        if moved {
            continuation.yield(.statusChanged(identifier: identifier, status: next))
            if next.isFinal { continuation.finish() }
        }
        return moved
    }

    /// Records a failure: publishes the error result, then moves to `failed`. Does nothing once
    /// the controller has already reached a final status.
    func fail(with result: ErrorResult) {
        let allowed = current.withLock { $0.canMove(to: .failed) }
        guard allowed else { return }
        continuation.yield(.failed(identifier: identifier, result: result))
        move(to: .failed)
    }

    /// Publishes a non-fatal fact.
    func warn(_ message: String) {
        continuation.yield(.warning(identifier: identifier, message: message))
    }
}
