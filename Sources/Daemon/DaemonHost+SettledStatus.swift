import ControlProtocol
import Session

extension DaemonHost {
    /// The status a run command answers with: once every event the current session has
    /// published so far is in the view. The session's events reach the view through their own
    /// task (`run()`), so right after a command returns, a loaded machine may not have applied
    /// the step it showed yet, and the answer would show the step before (docs/protocol.md,
    /// "Run commands").
    func settledStatus() async -> SessionStatus {
        if consumingEvents, let session, !sessionEventsEnded {
            let target = session.events.lastSequence
            if appliedSequence < target {
                await withCheckedContinuation { settleWaiters.append((target, $0)) }
            }
        }
        return status()
    }

    /// The current session's event `sequence` is in the view: the commands waiting for it go on.
    func applied(_ sequence: UInt64) {
        appliedSequence = max(appliedSequence, sequence)
        let ready = settleWaiters.filter { $0.sequence <= appliedSequence }
        settleWaiters.removeAll { $0.sequence <= appliedSequence }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// No more events come from `source` (its run ended or its subscription was dropped):
    /// nobody waits for them.
    func eventsEnded(of source: TaskSession) {
        guard source === session else { return }
        sessionEventsEnded = true
        releaseSettleWaiters()
    }

    /// A new session starts counting from its first event.
    func startSettling() {
        appliedSequence = 0
        sessionEventsEnded = false
        releaseSettleWaiters()
    }

    /// `run()` ends: no event is applied any more, so nobody waits for one.
    func stopSettling() {
        consumingEvents = false
        releaseSettleWaiters()
    }

    private func releaseSettleWaiters() {
        let waiting = settleWaiters
        settleWaiters = []
        for waiter in waiting { waiter.continuation.resume() }
    }
}
