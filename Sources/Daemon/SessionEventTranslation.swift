import ControlProtocol
import Foundation
import Session
import TaskModel

/// Session events as the control socket carries them (docs/protocol.md): one kind per event,
/// the daemon's own sequence numbers (a session numbers its events from 1; the socket numbers
/// them across every run of the daemon's life).
enum SessionEventTranslation {
    /// The wire payload of `kind` for the run `taskRunUUID`; nil for nothing to send.
    static func payload(of kind: SessionEvent.Kind, taskRunUUID: UUID, quality: (any RunQualityReport)? = nil) -> ControlEventPayload? {
        switch kind {
        case .stepShown(let shown):
            return .stepShown(stepShownEvent(shown))
        case .timer(let timer):
            switch timer {
            case .started(let path, let duration):
                return .timerStarted(StepTimerEvent(stepPath: path, duration: duration, elapsed: 0, remaining: duration))
            case .tick(let path, let elapsed, let remaining):
                return .timerTick(StepTimerEvent(stepPath: path, elapsed: elapsed, remaining: remaining))
            case .paused(let path, let elapsed):
                return .timerPaused(StepTimerEvent(stepPath: path, elapsed: elapsed))
            case .resumed(let path, let elapsed):
                return .timerResumed(StepTimerEvent(stepPath: path, elapsed: elapsed))
            case .finished(let path):
                return .timerFinished(StepTimerEvent(stepPath: path))
            }
        case .actionStatus(let identifier, let owner, let status):
            return .actionStatus(ActionStatusEvent(identifier: identifier, owner: owner, status: status.description))
        case .actionFailed(let identifier, let owner, let message):
            return .actionFailed(ActionFailedEvent(identifier: identifier, owner: owner, message: message))
        case .warning(let message, let identifier):
            return .warning(WarningEvent(message: message, identifier: identifier))
        case .permissionRequest(let request):
            return .permissionRequest(PermissionRequestEvent(
                requestID: request.id, permission: request.permission, title: request.title, reason: request.reason,
                actions: request.actions, deadlineUptime: request.deadlineUptime))
        case .permissionAnswered(let id, let permission, let granted):
            return .permissionAnswered(PermissionAnsweredEvent(requestID: id, permission: permission, granted: granted))
        case .promptSpoken(let stepPath, let text, let scheduled, let onset):
            return .promptSpoken(PromptSpokenEvent(stepPath: stepPath, text: text, scheduledUptime: scheduled, spokenUptime: onset))
        case .promptFinished(let stepPath, let text, let end):
            return .promptFinished(PromptFinishedEvent(stepPath: stepPath, text: text, finishedUptime: end))
        case .command(let stepPath, let command):
            return .stepCommand(StepCommandEvent(stepPath: stepPath, command: command))
        case .audioLevel(let identifier, let average, let peak):
            return .audioLevel(AudioLevelEvent(identifier: identifier, averageDBFS: average, peakDBFS: peak))
        case .motionProgress(let identifier, let samples, let rate):
            return .motionProgress(MotionProgressEvent(identifier: identifier, samplesWritten: samples, achievedRate: rate))
        case .taskFinished(let reason, let directory, let archive):
            return .taskFinished(TaskFinishedEvent(
                taskRunUUID: taskRunUUID.uuidString, reason: RunState(reason), runDirectory: directory.path,
                archive: archive?.path, quality: quality.map(summary)))
        case .taskResultReady(let stepPath, let directory):
            return .taskResultReady(TaskResultReadyEvent(taskRunUUID: taskRunUUID.uuidString, runDirectory: directory.path, stepPath: stepPath))
        case .eventsLost(let count):
            return .eventsLost(EventsLostEvent(count: count))
        case .qualityChecked:
            // Carried by the taskFinished event that follows (DaemonHost keeps it until then).
            return nil
        }
    }

    static func stepShownEvent(_ shown: StepShown) -> StepShownEvent {
        StepShownEvent(
            stepPath: shown.stepPath, step: .object(shown.step), type: shown.type, direction: shown.direction.rawValue,
            progress: shown.progress, allowedActions: shown.allowedActions.compactMap(StepAction.init(rawValue:)),
            duration: shown.duration, previousResult: shown.previousResult.flatMap { try? JSONValue.encoding($0) },
            cohorts: shown.cohorts, hasStepBefore: shown.hasStepBefore, hasStepAfter: shown.hasStepAfter,
            transitionsAutomatically: shown.transitionsAutomatically, startsTimerAutomatically: shown.startsTimerAutomatically)
    }
}

/// The verdict and the sentences of the checks that are not ok, worst first.
func summary(_ report: any RunQualityReport) -> QualitySummary {
    QualitySummary(verdict: report.verdictName, problems: report.problems)
}

extension RunState {
    /// The wire state of a run that finished for `reason`.
    init(_ reason: FinishReason) {
        self = RunState(rawValue: reason.rawValue) ?? .interrupted
    }
}
