import BlockingCalls
import Clocks
import Foundation
import Logging
import TaskModel
import TaskNavigation

extension TaskSession {
    /// The step's result from what the front end sent (docs/session.md, "Step results"): no
    /// answers give a base result, one answer named after the step an answer result, several
    /// answers a collection; `skipToIdentifier` is kept on it. A front end's own result (tapping) is
    /// the step's result as sent. The machine has checked the
    /// answers (`SessionMachine.validate`).
    func stepResult(_ input: StepResultInput, for step: Step, at location: StepLocation) -> any ResultData {
        if let result = input.result { return result }
        let shown = results.currentResult(for: task.identifiers(along: location))?.result.startDate ?? Date()
        let now = Date()
        func answerResult(_ answer: StepResultInput.Answer, skip: String?) -> AnswerResult {
            // An unanswered question's result has no value, as SageResearch writes it.
            let value = step.isQuestion && answer.value == .null ? nil : answer.value
            return AnswerResult(identifier: answer.identifier, startDate: shown, endDate: now, answerType: answer.answerType,
                                value: value, questionText: answer.questionText, skipToIdentifier: skip)
        }
        switch input.answers.count {
        case 0:
            return BaseResult(identifier: step.identifier, startDate: shown, endDate: now, skipToIdentifier: input.skipToIdentifier)
        case 1 where input.answers[0].identifier == step.identifier:
            return answerResult(input.answers[0], skip: input.skipToIdentifier)
        default:
            return CollectionResult(
                identifier: step.identifier, startDate: shown, endDate: now,
                children: input.answers.map { AnyResult(answerResult($0, skip: nil)) }, skipToIdentifier: input.skipToIdentifier)
        }
    }

    // MARK: Finishing

    /// Publishes `taskResultReady`: the task result is final and written (SageResearch's
    /// `handleTaskResultReady`, docs/session.md). The machine says when: as the last completion
    /// step shows, else as the run completes, exits early or is abandoned
    /// (`SessionMachine.announcesResultAtEnd`).
    func announceResultReady(stepPath: String?) {
        events.publish(.taskResultReady(stepPath: stepPath, runDirectory: run.url))
    }

    /// Ends the run for `reason` (the machine decided it and disarmed the clock): timed prompts
    /// stop, every action still active stops (or, for a discarded run, is cancelled), what is
    /// still being said is heard, the results and the archive are written, and subscribers hear
    /// `taskFinished`.
    func finish(_ reason: FinishReason) async {
        await settings.voice?.endStep()
        if reason == .discarded { await settings.voice?.holdStream(false) }
        await feed(reason == .discarded ? .cancelRequested : .stopRequested(keys: nil))
        let endDate = Date()
        var archive: URL?
        if reason == .discarded {
            _ = machine.handle(.runFinished(reason), at: RecordingClock.monotonic())
            let store = store, uuid = taskRunUUID
            do { try await BlockingCall.run("run-discard") { try store.discard(uuid) } } catch {
                logger.error("The discarded run directory could not be deleted", metadata: ["error": "\(error)"])
            }
        } else {
            if reason != .saved { results.finish(endDate: endDate) }
            let announcesResult = machine.announcesResultAtEnd
            _ = machine.handle(.runFinished(reason), at: RecordingClock.monotonic())
            // What is still being said (a completion step's prompt, the step's `end` prompt
            // before it) is heard and reported before prompts.json and the archive are written;
            // the held stream is let go after it, so those prompts are measured like the rest.
            await waitForVoice()
            await settings.voice?.holdStream(false)
            archive = await finishRun(reason, endDate: endDate)
            if announcesResult { announceResultReady(stepPath: nil) }
            if reason != .saved, let report = await checkQuality() {
                quality = report
                events.publish(.qualityChecked(report))
            }
        }
        logger.info("Task finished", metadata: ["reason": "\(reason.rawValue)"])
        events.publish(.taskFinished(reason: reason, runDirectory: run.url, archive: archive))
        jobs.finish()
    }
}
