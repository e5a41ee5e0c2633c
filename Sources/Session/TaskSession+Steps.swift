import AsyncActions
import Clocks
import Foundation
import Logging
import TaskModel
import TaskNavigation
import Voice

extension TaskSession {
    // MARK: Moves

    /// Carries out one navigator move (docs/session.md, "A move"): the step left ends, its
    /// actions stop, sections close and open, the new step's result is created, its actions are
    /// created and ask permission, its prompts and timer are set up.
    func perform(_ transition: NavigationTransition, exitTarget: Bool = false) async {
        if let from = transition.from, let step = task.step(at: from) {
            await leave(step, at: from, direction: transition.direction)
        }
        timer = nil
        timerGeneration &+= 1

        await stop(transition.stopAsyncActions.map(\.description))
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

        guard let location = transition.to, let step = task.step(at: location) else {
            await finish(exitTarget ? .earlyExit : .completed)
            return
        }
        let path = task.stepPath(of: location)
        logger[metadataKey: "stepPath"] = "\(path)"
        try? results.showStep(
            path: task.identifiers(along: location), result: BaseResult(identifier: step.identifier, startDate: now, endDate: now),
            direction: direction)
        endSpoken = false
        resultSentByFrontEnd = false
        shownPaths.append(path)
        for key in controllerOrder {
            guard let entry = controllers[key], entry.phase == .running else { continue }
            await entry.controller.moveTo(stepPath: path)
        }
        for reference in transition.startAsyncActions {
            await create(reference, on: step)
        }
        // Re-check: a controller failing on a step that ends on interrupt may have ended the run.
        guard !state.isOver else { return }

        // The step's clips are made before it is shown, so its `start` prompt is heard as it shows.
        let prompts = spokenPrompts(of: step)
        await settings.voice?.preload(prompts)
        let shown = publishStepShown(step, location: location, path: path, direction: transition.direction)
        await prepareVoice(for: step, path: path, prompts: prompts, shownUptime: shown.uptime)
        if let duration = step.effectiveDuration, step.kind.isTimed {
            timer = StepTimer(duration: duration)
            if startsTimerAutomatically(step) && !ledger.isWaiting { await startStepTimer() }
        } else {
            // A step without a timer starts when it is shown (RSDStepViewController's start commands).
            await performCommands(of: step, stepPath: path, finishing: false)
        }
        if isLastCompletionStep(location) {
            // SageResearch's result-ready moment: every recorder stops, the results are written.
            await stop(controllerOrder.filter { controllers[$0]?.isActive == true })
            await writeResults()
        }
        await writeManifest()
    }

    /// The step shown ends: its `end` prompt is spoken if the timer did not get to it, queued
    /// prompts are dropped, its result gets its end date.
    private func leave(_ step: Step, at location: StepLocation, direction: NavigationDirection) async {
        if !endSpoken, let end = step.spokenInstructions?["end"], direction == .forward {
            endSpoken = true
            await speakNow(end, stepPath: task.stepPath(of: location))
        }
        if direction == .forward, !(step.kind.isTimed && step.effectiveDuration != nil) {
            // A step without a timer finishes when the person moves on.
            await performCommands(of: step, stepPath: task.stepPath(of: location), finishing: true)
        }
        await settings.voice?.endStep()
        let identifiers = task.identifiers(along: location)
        if !resultSentByFrontEnd, let shown = results.currentResult(for: identifiers)?.result as? BaseResult {
            var ended = shown
            ended.endDate = Date()
            try? results.setResult(ended, forStep: identifiers)
        }
    }

    func startsTimerAutomatically(_ step: Step) -> Bool {
        step.kind == .countdown || step.commands.contains(.startTimerAutomatically) || step.transitionsAutomatically
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
        if navigator.history.count > 1, step.kind != .completion, !hides("goBackward", on: step) { allowed.append("back") }
        if !hides("skip", on: step), step.kind != .completion { allowed.append("skip") }
        if step.kind.isTimed, step.effectiveDuration != nil { allowed += ["timer.start", "timer.pause", "timer.resume"] }
        return events.publish(.stepShown(StepShown(
            stepPath: path, step: step.properties, type: step.type.rawValue, direction: direction,
            progress: navigator.progress, allowedActions: allowed,
            duration: step.kind.isTimed ? step.effectiveDuration : nil,
            previousResult: results.previousResult(for: task.identifiers(along: location)))))
    }

    // MARK: Voice

    /// A step's spoken instructions at their seconds of the step timer, each with the key it
    /// came from (which selects a recorded clip).
    func spokenPrompts(of step: Step) -> [SpokenPrompt] {
        let entries = SpokenInstructionSchedule.entries(for: step)
        let keyed = Dictionary((step.spokenInstructions ?? [:]).map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return entries.map { SpokenPrompt(time: $0.time, text: $0.text, key: keyed[$0.text]) }
    }

    /// Time-0 prompts are spoken as the step shows (SageResearch 4 speaks `start` then, even when
    /// the timer starts later), scheduled at the step's `stepShown` time so that prompts.json
    /// shows how late they were heard; the rest wait for the timer.
    func prepareVoice(for step: Step, path: String, prompts: [SpokenPrompt], shownUptime: Double) async {
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

    func voiceEvent(_ event: VoiceEvent) {
        switch event {
        case .promptStarted(let stepPath, let text, let scheduled, let onset):
            if !text.hasPrefix("<") {
                prompts.append(RunManifest.Prompt(stepPath: stepPath, text: text, scheduledUptime: scheduled ?? onset, spokenUptime: onset))
            }
            events.publish(.promptSpoken(stepPath: stepPath, text: text, scheduledUptime: scheduled, onsetUptime: onset))
            if let timer, let step = navigator.currentStep, stepPath == navigator.currentStepPath,
               let end = step.spokenInstructions?["end"], end == text, timer.duration > 0 {
                endSpoken = true
            }
        case .promptFinished:
            break
        case .playbackFailed(let message):
            events.publish(.warning(message: message, identifier: nil))
        }
    }

    // MARK: Step timer

    func startStepTimer() async {
        guard var current = timer, let step = navigator.currentStep, let path = navigator.currentStepPath else { return }
        let now = RecordingClock.monotonic()
        guard current.start(at: now) else { return }
        timer = current
        timerGeneration &+= 1
        await startReadyControllers(stepPath: path)
        guard !state.isOver else { return }
        await performCommands(of: step, stepPath: path, finishing: false)
        await settings.voice?.startTimer(atMonotonic: now)
        events.publish(.timer(.started(stepPath: path, duration: current.duration)))
        runClock(generation: timerGeneration)
        await writeManifest()
    }

    func pauseStepTimer() async {
        guard var current = timer, let step = navigator.currentStep, let path = navigator.currentStepPath,
              let elapsed = current.pause(at: RecordingClock.monotonic()) else { return }
        timer = current
        timerGeneration &+= 1
        state = .paused
        await settings.voice?.pauseTimer(speakWarning: step.commands.contains(.speakWarningOnPause))
        events.publish(.timer(.paused(stepPath: path, elapsed: elapsed)))
        await writeManifest()
    }

    func resumeStepTimer() async {
        guard var current = timer, let path = navigator.currentStepPath else { return }
        let now = RecordingClock.monotonic()
        guard current.resume(at: now) else { return }
        timer = current
        timerGeneration &+= 1
        state = .running
        await settings.voice?.resumeTimer()
        events.publish(.timer(.resumed(stepPath: path, elapsed: current.elapsed(at: now))))
        runClock(generation: timerGeneration)
        await writeManifest()
    }

    /// Ticks once a second and ends the timer, until the timer of `generation` is replaced.
    func runClock(generation: UInt64) {
        schedule { [weak self] in
            while let self, let deadline = await self.clockDeadline(generation) {
                let delay = deadline - RecordingClock.monotonic()
                if delay > 0 {
                    do { try await Task.sleep(for: .seconds(delay)) } catch { return }
                }
                await self.clockDue(generation)
            }
        }
    }

    func clockDeadline(_ generation: UInt64) -> Double? {
        guard generation == timerGeneration, !state.isOver else { return nil }
        return timer?.nextDeadline(after: RecordingClock.monotonic())
    }

    func clockDue(_ generation: UInt64) async {
        await exclusive {
            // Re-checked inside the command lock: a move or pause may have come first.
            guard generation == timerGeneration, var current = timer, let path = navigator.currentStepPath else { return }
            let now = RecordingClock.monotonic()
            if current.finishIfDue(at: now) {
                timer = current
                await timerFinished(path: path)
            } else if current.isRunning {
                events.publish(.timer(.tick(stepPath: path, elapsed: current.elapsed(at: now).rounded(), remaining: current.remaining(at: now).rounded())))
            }
        }
    }

    /// The step timer ended: the actions whose stop step this is stop now, the finish sound
    /// plays, and the step moves on by itself when it says so.
    func timerFinished(path: String) async {
        timerGeneration &+= 1
        guard let step = navigator.currentStep else { return }
        events.publish(.timer(.finished(stepPath: path)))
        if step.spokenInstructions?["end"] != nil { endSpoken = true }
        await stop(navigator.stepTimerFinished().map(\.description))
        await performCommands(of: step, stepPath: path, finishing: true)
        await writeManifest()
        guard !state.isOver, step.transitionsAutomatically else { return }
        do {
            let transition = try navigator.goForward(skipToIdentifier: nil)
            await perform(transition, exitTarget: step.nextStepIdentifier == "exit")
        } catch {
            events.publish(.warning(message: "The step \(path) could not move on by itself: \(error)", identifier: nil))
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
