public import Foundation
public import TaskModel
public import TaskNavigation
public import AsyncActions

/// One thing a session reports, numbered in the order it happened.
public struct SessionEvent: Sendable {
    /// 1, 2, 3, … for the whole session; a subscriber sees gaps only after `eventsLost`.
    public var sequence: UInt64
    /// CLOCK_BOOTTIME seconds when the event happened.
    public var uptime: Double
    public var kind: Kind

    public init(sequence: UInt64, uptime: Double, kind: Kind) {
        self.sequence = sequence
        self.uptime = uptime
        self.kind = kind
    }

    public enum Kind: Sendable {
        /// A step is shown: the step as written (UI keys included), where it is, and what the
        /// front end may do now.
        case stepShown(StepShown)
        case timer(TimerEvent)
        /// An async action's status moved forward.
        case actionStatus(identifier: String, owner: String, status: AsyncActionStatus)
        /// An async action failed; its `<identifier>_error` result is recorded.
        case actionFailed(identifier: String, owner: String, message: String)
        /// Something worth telling that stops nothing (an overrun, a gap, a refused prompt).
        case warning(message: String, identifier: String?)
        /// The front end must answer: may the task use this permission?
        case permissionRequest(PermissionRequest)
        /// A permission request was answered (by the front end, the policy or its time-out).
        case permissionAnswered(id: UInt64, permission: String, granted: Bool)
        /// A spoken prompt started to be heard.
        case promptSpoken(stepPath: String, text: String, scheduledUptime: Double?, onsetUptime: Double)
        /// A spoken prompt's last sample was heard.
        case promptFinished(stepPath: String, text: String, endUptime: Double)
        /// A `playSound*` sound or a `vibrate*` command of the step (vibration is the front end's).
        case command(stepPath: String, command: String)
        /// One second of microphone levels.
        case audioLevel(identifier: String, averageDBFS: Double, peakDBFS: Double)
        /// One second of motion recording.
        case motionProgress(identifier: String, samplesWritten: Int, achievedRate: Double)
        /// The quality checks of the run that just ended (`qc.json` in its run directory), sent
        /// right before `taskFinished` for every run that finished (not for a saved or
        /// discarded one), so a front end can say at once that a recording must be repeated.
        case qualityChecked(any RunQualityReport)
        /// The task result is final and written (SageResearch's result-ready moment): the last
        /// completion step `stepPath` shows, or the run ends (nil).
        case taskResultReady(stepPath: String?, runDirectory: URL)
        /// The run ended; results and the archive are in `runDirectory`.
        case taskFinished(reason: FinishReason, runDirectory: URL, archive: URL?)
        /// This subscriber was too slow: `count` events before this one were dropped.
        case eventsLost(count: UInt64)
    }
}

/// What the front end needs to show a step.
public struct StepShown: Sendable {
    public var stepPath: String
    /// The step's JSON as written (every key, UI keys and unknown keys included).
    public var step: [String: JSONValue]
    public var type: String
    public var direction: NavigationDirection
    public var progress: StepProgress?
    /// The commands the front end may send now (`forward`, `back`, `skip`, `timer.start`, …).
    public var allowedActions: [String]
    /// The step's timer length, when it has one.
    public var duration: Double?
    /// The result left behind when this step was shown before (for pre-filling answers).
    public var previousResult: AnyResult?
    /// The participant's cohorts when the step is shown, sorted.
    public var cohorts: [String] = []
    /// A step was shown before this one.
    public var hasStepBefore: Bool = false
    /// Going forward shows another step.
    public var hasStepAfter: Bool = false
    /// The session moves on by itself once the step's timer ends (`Step.transitionsAutomatically`).
    public var transitionsAutomatically: Bool = false
    /// The session starts the step's timer itself as it shows (`SessionMachine.startsTimerAutomatically`).
    public var startsTimerAutomatically: Bool = false
}

/// What the step timer did.
public enum TimerEvent: Sendable, Hashable {
    case started(stepPath: String, duration: Double)
    case tick(stepPath: String, elapsed: Double, remaining: Double)
    case paused(stepPath: String, elapsed: Double)
    case resumed(stepPath: String, elapsed: Double)
    case finished(stepPath: String)
}

/// A question for the front end.
public struct PermissionRequest: Sendable, Hashable {
    public var id: UInt64
    public var permission: String
    /// From the step's `permissions[]` entry when it has one.
    public var title: String?
    public var reason: String?
    /// The async actions waiting for the answer.
    public var actions: [String]
    /// When the request is denied if nobody answers (CLOCK_BOOTTIME seconds).
    public var deadlineUptime: Double
}
