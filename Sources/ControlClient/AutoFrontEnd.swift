public import ControlProtocol

/// The automatic front end of `activetaskctl run --auto` as a pure state machine: it is told
/// the events and the time, and returns the commands to send. Instruction steps go forward at
/// once; timed steps go forward once their timer has finished (unless the session moved on by
/// itself); a timer nobody starts is started; permission requests are granted.
public struct AutoFrontEnd: Sendable {
    /// A command for the caller to send.
    public enum Action: Sendable, Hashable {
        case forward(stepPath: String)
        case startTimer
        case grant(requestID: UInt64)
        case finished(TaskFinishedEvent)
    }

    /// How long a timed step may wait for its timer before the front end starts it (seconds).
    public var timerStartGrace: Double = 1
    /// How long after a timer finished the session may move on by itself before the front end
    /// goes forward (seconds).
    public var transitionGrace: Double = 0.5

    private var step: StepShownEvent?
    private var shownAt = 0.0
    private var timerStarted = false
    private var timerStartRequested = false
    private var timerFinishedAt: Double?
    private var leaving = false

    public init() {}

    /// The step on screen when the front end starts (from `run.status`).
    public mutating func show(_ shown: StepShownEvent, now: Double, timerRunning: Bool = false) -> [Action] {
        step = shown
        shownAt = now
        timerStarted = timerRunning
        timerStartRequested = false
        timerFinishedAt = nil
        leaving = false
        if (shown.duration ?? 0) <= 0 {
            leaving = true
            return [.forward(stepPath: shown.stepPath)]
        }
        return []
    }

    public mutating func receive(_ event: ControlEvent, now: Double) -> [Action] {
        switch event.payload {
        case .stepShown(let shown):
            return show(shown, now: now)
        case .timerStarted(let timer), .timerResumed(let timer):
            if timer.stepPath == step?.stepPath { timerStarted = true }
        case .timerFinished(let timer):
            if timer.stepPath == step?.stepPath { timerFinishedAt = now }
        case .permissionRequest(let request):
            return [.grant(requestID: request.requestID)]
        case .taskFinished(let finished):
            step = nil
            return [.finished(finished)]
        default:
            break
        }
        return []
    }

    public mutating func tick(now: Double) -> [Action] {
        guard let step, !leaving else { return [] }
        if let finishedAt = timerFinishedAt {
            guard now - finishedAt >= transitionGrace else { return [] }
            leaving = true
            return [.forward(stepPath: step.stepPath)]
        }
        if !timerStarted, !timerStartRequested, now - shownAt >= timerStartGrace {
            timerStartRequested = true
            return [.startTimer]
        }
        return []
    }
}
