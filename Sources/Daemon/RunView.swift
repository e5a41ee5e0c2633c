import ControlProtocol
import Foundation

/// What a front end that connects in the middle of a run needs to catch up (`run.status`): the
/// step shown, its timer and the open permission question, kept up to date from the run's
/// events. Plain bookkeeping, tested without a daemon.
struct RunView: Sendable {
    var step: StepShownEvent?
    var timer: TimerStatus?
    /// The open permission questions, oldest first: a step that creates several actions asks
    /// one question per permission, all at once.
    var openPermissionRequests: [PermissionRequestEvent] = []
    var finished: TaskFinishedEvent?

    /// The question a front end should ask now (`SessionStatus.permissionRequest`): the oldest
    /// one still open, so that answering it shows the next.
    var permissionRequest: PermissionRequestEvent? { openPermissionRequests.first }

    /// Folds in one event at `uptime`.
    mutating func apply(_ payload: ControlEventPayload, uptime: Double) {
        switch payload {
        case .stepShown(let shown):
            step = shown
            timer = shown.duration.map { TimerStatus(stepPath: shown.stepPath, duration: $0, elapsed: 0, running: false) }
        case .timerStarted(let event), .timerResumed(let event):
            guard var current = timer, current.stepPath == event.stepPath else { return }
            current.elapsed = event.elapsed ?? current.elapsed
            current.running = true
            timer = current
        case .timerTick(let event):
            guard var current = timer, current.stepPath == event.stepPath else { return }
            current.elapsed = event.elapsed ?? current.elapsed
            timer = current
        case .timerPaused(let event):
            guard var current = timer, current.stepPath == event.stepPath else { return }
            current.elapsed = event.elapsed ?? current.elapsed
            current.running = false
            timer = current
        case .timerFinished(let event):
            guard var current = timer, current.stepPath == event.stepPath else { return }
            current.elapsed = current.duration
            current.running = false
            timer = current
        case .permissionRequest(let request):
            openPermissionRequests.append(request)
        case .permissionAnswered(let answer):
            openPermissionRequests.removeAll { $0.requestID == answer.requestID }
        case .taskFinished(let event):
            finished = event
            timer = nil
            openPermissionRequests = []
        default:
            break
        }
    }
}
