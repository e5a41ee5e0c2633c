import AsyncActions
import Clocks
import Foundation
import Logging
import TaskModel
import TaskNavigation

extension TaskSession {
    // MARK: Moves

    /// Carries out one navigator move (docs/session.md, "A move"): the step left ends, its
    /// actions stop, sections close and open, the new step's result is created, its actions are
    /// created and ask permission, its prompts and timer are set up. The machine has already
    /// made the new step the one shown; `leaving` is the step left as it was.
    func carryOutMove(_ transition: NavigationTransition, leaving: ShownStep?) async {
        if let leaving, let step = task.step(at: leaving.location) {
            await leave(step, shown: leaving, direction: transition.direction)
        }
        await stop(transition.stopAsyncActions.map(\.description))
        // Re-check after the awaits: a failing stop may have ended the run.
        guard !machine.isEnding else { return }
        let now = Date()
        for container in transition.exitedContainers {
            results.leaveSection(path: task.identifiers(along: container), endDate: now)
        }
        let direction = PathMarker.Direction(rawValue: transition.direction.rawValue) ?? .forward
        for container in transition.enteredContainers {
            // A taskInfo step's task gives a nested `task` result; sections and subtasks a `section`.
            let kind: ResultHistory.BranchKind = task.step(at: container)?.kind == .taskInfo ? .task : .section
            try? results.enterSection(path: task.identifiers(along: container), startDate: now, direction: direction, kind: kind)
        }

        // A move past the last step: the machine ends the run next.
        guard let location = transition.to, let step = task.step(at: location) else { return }
        let path = task.stepPath(of: location)
        logger[metadataKey: "stepPath"] = "\(path)"
        try? results.showStep(
            path: task.identifiers(along: location), result: BaseResult(identifier: step.identifier, startDate: now, endDate: now),
            direction: direction)
        shownPaths.append(path)
        for key in controllerOrder {
            guard let entry = controllers[key], entry.phase == .running else { continue }
            await entry.controller.moveTo(stepPath: path)
        }
        for reference in transition.startAsyncActions {
            await create(reference, on: step)
        }
        // Re-check: a controller failing on a step that ends on interrupt may have ended the run.
        guard !machine.isEnding else { return }

        // The step's clips are made before it is shown, so its `start` prompt is heard as it shows.
        let prompts = spokenPrompts(of: step)
        await settings.voice?.preload(prompts)
        let shown = publishStepShown(step, location: location, path: path, direction: transition.direction)
        await prepareVoice(for: step, path: path, prompts: prompts, shownUptime: shown.uptime)
        // The timer starts by itself, or the start commands of a step without one run.
        await feed(.stepSetUp(atMonotonic: RecordingClock.monotonic()))
        guard !machine.isEnding else { return }
        if isLastCompletionStep(location) {
            // SageResearch's result-ready moment: every recorder stops, the results are written.
            await stop(controllerOrder.filter { controllers[$0]?.isActive == true })
            guard !machine.isEnding else { return }
            await writeResults()
        }
        await writeManifest()
    }

    /// The step shown ends: its `end` prompt is spoken if the timer did not get to it, queued
    /// prompts are dropped, its result gets its end date unless the front end sent it.
    private func leave(_ step: Step, shown: ShownStep, direction: NavigationDirection) async {
        if shown.endPrompt == .notSpoken, let end = step.spokenInstructions?["end"], direction == .forward {
            await speakNow(end, stepPath: shown.path)
        }
        if direction == .forward, !(step.kind.isTimed && step.effectiveDuration != nil) {
            // A step without a timer finishes when the person moves on.
            await performCommands(of: step, stepPath: shown.path, finishing: true)
        }
        await settings.voice?.endStep()
        let identifiers = task.identifiers(along: shown.location)
        if shown.result == .shown, let result = results.currentResult(for: identifiers)?.result as? BaseResult {
            var ended = result
            ended.endDate = Date()
            try? results.setResult(ended, forStep: identifiers)
        }
    }

    /// True for the task's last step when it is a completion step.
    func isLastCompletionStep(_ location: StepLocation) -> Bool {
        guard task.step(at: location)?.kind == .completion else { return false }
        var container = task.container
        for (depth, index) in location.indexPath.enumerated() {
            guard index == container.steps.count - 1 else { return false }
            if depth < location.indexPath.count - 1 {
                guard let inner = container.steps[index].container else { return false }
                container = inner
            }
        }
        return true
    }

    @discardableResult
    func publishStepShown(_ step: Step, location: StepLocation, path: String, direction: NavigationDirection) -> SessionEvent {
        var allowed = ["forward", "cancel", "abandon"]
        if machine.navigator.history.count > 1, step.kind != .completion, !machine.hides("goBackward", on: step) { allowed.append("back") }
        if !machine.hides("skip", on: step), step.kind != .completion { allowed.append("skip") }
        if step.kind.isTimed, step.effectiveDuration != nil { allowed += ["timer.start", "timer.pause", "timer.resume"] }
        return events.publish(.stepShown(StepShown(
            stepPath: path, step: step.properties, type: step.type.rawValue, direction: direction,
            progress: machine.navigator.progress, allowedActions: allowed,
            duration: step.kind.isTimed ? step.effectiveDuration : nil,
            previousResult: results.previousResult(for: task.identifiers(along: location)))))
    }

    // MARK: Voice

    /// A step's spoken instructions at their seconds of the step timer, each with the key it
    /// came from (which selects a recorded clip).
    func spokenPrompts(of step: Step) -> [StepPrompt] {
        let entries = SpokenInstructionSchedule.entries(for: step)
        let keyed = Dictionary((step.spokenInstructions ?? [:]).map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return entries.map { StepPrompt(time: $0.time, text: $0.text, key: keyed[$0.text]) }
    }

    /// Time-0 prompts are spoken as the step shows (SageResearch 4 speaks `start` then, even when
    /// the timer starts later), scheduled at the step's `stepShown` time so that prompts.json
    /// shows how late they were heard; the rest wait for the timer.
    func prepareVoice(for step: Step, path: String, prompts: [StepPrompt], shownUptime: Double) async {
        let shownMonotonic = shownUptime - RecordingClock.boottimeOffset()
        for prompt in prompts where prompt.time == 0 {
            await speakNow(prompt.text, stepPath: path, key: prompt.key, scheduledAtMonotonic: shownMonotonic)
        }
        let timed = step.kind.isTimed ? prompts.filter { $0.time > 0 } : []
        guard let voice = settings.voice, !timed.isEmpty else { return }
        do {
            try await voice.prepare(stepPath: path, prompts: timed)
        } catch {
            events.publish(.warning(message: "The prompts of \(path) cannot be spoken: \(error)", identifier: nil))
        }
    }

    func speakNow(_ text: String, stepPath: String, key: String? = nil, scheduledAtMonotonic: Double? = nil) async {
        guard let voice = settings.voice else {
            // A silent session (no voice configured) speaks nothing by design: the prompt is
            // reported, not listed in prompts.json, whose entries are prompts meant to be heard
            // (the quality checks count one never heard as a failure).
            events.publish(.warning(message: "Not spoken, no voice is configured: \"\(text)\" (\(stepPath)).", identifier: nil))
            return
        }
        do {
            try await voice.speak(text, stepPath: stepPath, key: key, scheduledAtMonotonic: scheduledAtMonotonic)
        } catch {
            events.publish(.warning(message: "\"\(text)\" cannot be spoken: \(error)", identifier: nil))
        }
    }

    func voiceNotice(_ notice: VoiceNotice) {
        switch notice {
        case .promptStarted(let stepPath, let text, let scheduled, let onset):
            if !text.hasPrefix("<") {
                prompts.append(RunManifest.Prompt(stepPath: stepPath, text: text, scheduledUptime: scheduled ?? onset, spokenUptime: onset))
            }
            events.publish(.promptSpoken(stepPath: stepPath, text: text, scheduledUptime: scheduled, onsetUptime: onset))
            _ = machine.handle(.promptStarted(stepPath: stepPath, text: text))
        case .playbackFailed(let message):
            events.publish(.warning(message: message, identifier: nil))
        }
    }

    // MARK: Step clock

    /// Ticks once a second and ends the timer, until the machine disarms `generation`.
    func runClock(generation: UInt64) {
        schedule { [weak self] in
            while let self, let deadline = await self.machine.clockDeadline(generation, after: RecordingClock.monotonic()) {
                let delay = deadline - RecordingClock.monotonic()
                if delay > 0 {
                    do { try await Task.sleep(for: .seconds(delay)) } catch { return }
                }
                // Checked by the machine when its turn comes: a move or pause may have come first.
                try? await self.submit(.event(.clockDue(generation: generation, atMonotonic: RecordingClock.monotonic())))
            }
        }
    }

    /// The step's sound and vibration commands for its start or its finish, as SageResearch
    /// reads them (`playSound` is `playSoundOnStart` + `playSoundOnFinish`, `vibrate` likewise):
    /// sounds play here; each is reported by its start or finish name (vibration is the front
    /// end's).
    func performCommands(of step: Step, stepPath: String, finishing: Bool) async {
        let commands = Set(step.commands)
        let sound: ActiveStepCommand = finishing ? .playSoundOnFinish : .playSoundOnStart
        let vibration: ActiveStepCommand = finishing ? .vibrateOnFinish : .vibrateOnStart
        if commands.contains(sound) || commands.contains(.playSound) {
            await play(sound, stepPath: stepPath)
        }
        if commands.contains(vibration) || commands.contains(.vibrate) {
            events.publish(.command(stepPath: stepPath, command: vibration.rawValue))
        }
    }

    /// Plays the start or finish sound and reports it.
    func play(_ command: ActiveStepCommand, stepPath: String) async {
        events.publish(.command(stepPath: stepPath, command: command.rawValue))
        guard let voice = settings.voice else { return }
        do { try await voice.play(command == .playSoundOnFinish ? .finish : .start, stepPath: stepPath) } catch {
            events.publish(.warning(message: "The \(command.rawValue) sound cannot be played: \(error)", identifier: nil))
        }
    }
}
