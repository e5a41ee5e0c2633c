import Foundation
import Session
import Testing

/// Drives a session step by step from a test: runs its time-driven work, and waits for the
/// events the test expects (with a time limit, so a missing event fails instead of hanging).
final class SessionDriver: Sendable {
    let session: TaskSession
    private let events: SessionEvents
    private let runner: Task<Void, Never>

    init(_ session: TaskSession) {
        self.session = session
        events = session.events.subscribe()
        runner = Task { await session.run() }
    }

    /// The next event matching `predicate`, within `seconds`.
    func next<T: Sendable>(within seconds: Double = 20, _ predicate: @escaping @Sendable (SessionEvent.Kind) -> T?) async -> T? {
        let events = events
        return await withTaskGroup(of: T?.self) { group in
            group.addTask {
                for await event in events {
                    if let match = predicate(event.kind) { return match }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// The path of the next step shown.
    func nextStep(within seconds: Double = 20) async -> String? {
        await next(within: seconds) { kind in
            if case .stepShown(let shown) = kind { return shown.stepPath }
            return nil
        }
    }

    /// Waits for the run to end and returns how.
    func finished(within seconds: Double = 30) async -> (FinishReason, URL, URL?)? {
        await next(within: seconds) { kind in
            if case .taskFinished(let reason, let directory, let archive) = kind { return (reason, directory, archive) }
            return nil
        }
    }

    func stop() async {
        await runner.value
    }
}
