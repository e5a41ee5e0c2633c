import ControlProtocol
import Session

extension DaemonHost {
    /// The status a run command answers with: once every event the current session has
    /// published so far is in the view. The session's events reach the view through their own
    /// task (`run()`), so right after a command returns, a loaded machine may not have applied
    /// the step it showed yet, and the answer would show the step before (docs/protocol.md,
    /// "Run commands").
    func settledStatus() async -> SessionStatus {
        if consumingEvents, let session {
            let target = session.events.lastSequence
            if appliedEvents.mustWait(for: target) {
                await withCheckedContinuation { appliedEvents.enqueue(target, $0) }
            }
        }
        return status()
    }

    /// The current session's event `sequence` is in the view: the commands waiting for it go on.
    func applied(_ sequence: UInt64) {
        appliedEvents.advance(to: sequence)
    }

    /// No more events come from `source` (its run ended or its subscription was dropped):
    /// nobody waits for them.
    func eventsEnded(of source: TaskSession) {
        guard source === session else { return }
        appliedEvents.end()
    }

    /// A new session starts counting from its first event.
    func startSettling() {
        appliedEvents.restart()
    }

    /// `run()` ends: no event is applied any more, so nobody waits for one.
    func stopSettling() {
        consumingEvents = false
        appliedEvents.end()
    }
}
