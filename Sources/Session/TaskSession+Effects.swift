import AsyncActions
import Foundation
import Logging
import TaskModel
import TaskNavigation

extension TaskSession {
    /// Carries out one effect of the machine (docs/session.md, "The machine"): the one place
    /// where the session does I/O, speaks, publishes and awaits.
    func carryOut(_ effect: SessionMachine.Effect) async {
        switch effect {
        case .beginResults:
            startDate = Date()
            results = Self.emptyResults(of: task, taskRunUUID: taskRunUUID, startDate: startDate)
            logger.info("Task started")
        case .resumeResults(let stepPath):
            logger.info("Task resumed", metadata: ["stepPath": "\(stepPath)"])
        case .recordStepResult(let input, let location):
            guard let step = task.step(at: location) else { return }
            try? results.setResult(stepResult(input, for: step, at: location), forStep: task.identifiers(along: location))
        case .recordAbandonment(let owner):
            let now = Date()
            results.appendAsyncResult(
                AnswerResult(identifier: "abandonAssessment", startDate: now, endDate: now, answerType: .object(["type": .string("boolean")]), value: .bool(true)),
                ownerPath: task.identifiers(along: owner))
        case .speak(let text, let stepPath):
            await speakNow(text, stepPath: stepPath)
        case .voiceEndStep:
            await settings.voice?.endStep()
        case .awaitVoice:
            await waitForVoice()
        case .voiceHoldStream:
            await settings.voice?.holdStream(true)
        case .endStepResult(let location):
            let identifiers = task.identifiers(along: location)
            guard var ended = results.currentResult(for: identifiers)?.result as? BaseResult else { return }
            ended.endDate = Date()
            try? results.setResult(ended, forStep: identifiers)
        case .moveSections(let exited, let entered, let direction, let resume):
            moveSections(exited: exited, entered: entered, direction: direction, resume: resume)
        case .showStep(let location, let direction):
            await showStep(at: location, direction: direction)
        case .createActions(let references, let location):
            await createActions(references, on: location)
        case .askPermission(let question, let identifier, let location):
            askPermission(question, actionIdentifier: identifier, on: location)
        case .requestDevice(let key):
            await requestDevice(key)
        case .startActions(let keys, let stepPath):
            await startControllers(keys, stepPath: stepPath)
        case .stopControllers(let keys):
            await stopControllers(keys)
        case .cancelControllers(let keys):
            await cancelControllers(keys)
        case .recordActionResults(let key):
            recordStopResults(key)
        case .recordActionFailure(let key, let code, let message, let result):
            recordFailure(key, code: code, message: message, result: result)
        case .publishPermissionAnswered(let question, let granted):
            events.publish(.permissionAnswered(id: question.id, permission: question.permission.rawValue, granted: granted))
        case .presentStep(let location, let direction):
            await presentStep(at: location, direction: direction)
        case .stopActiveActions:
            await feed(.stopRequested(keys: nil))
        case .writeResults:
            await writeResults()
            announceResultReady(stepPath: machine.shown?.path)
        case .performStepCommands(let stepPath, let finishing):
            guard let location = machine.location(ofPath: stepPath), let step = task.step(at: location) else { return }
            await performCommands(of: step, stepPath: stepPath, finishing: finishing)
        case .voiceStartTimer(let now):
            await settings.voice?.startTimer(atMonotonic: now)
        case .voicePauseTimer(let speakWarning):
            await settings.voice?.pauseTimer(speakWarning: speakWarning)
        case .voiceResumeTimer:
            await settings.voice?.resumeTimer()
        case .publishTimer(let event):
            events.publish(.timer(event))
        case .warn(let message):
            events.publish(.warning(message: message, identifier: nil))
        case .armClock(let generation):
            runClock(generation: generation)
        case .finishRun(let reason):
            await finish(reason)
        case .writeManifest:
            await writeManifest()
        case .then(let event):
            await feed(event)
        }
    }
}
