import AsyncActions
import Clocks
import Foundation
import Logging
import TaskModel
import TaskNavigation

extension TaskSession {
    // MARK: Moves

    /// Sections and subtasks left close their results; those entered open theirs
    /// (ResultHistory+Moves.swift, docs/runs.md).
    func moveSections(exited: [StepLocation], entered: [StepLocation], direction: NavigationDirection, resume: Bool = true) {
        results.moveSections(exited: exited, entered: entered, direction: direction, resume: resume, in: task, at: Date())
    }

    /// The step at `location` gets its result and its place in the history; running recorders
    /// write a step-change marker.
    func showStep(at location: StepLocation, direction: NavigationDirection) async {
        guard task.step(at: location) != nil else { return }
        let path = task.stepPath(of: location)
        logger[metadataKey: "stepPath"] = "\(path)"
        results.showStep(at: location, direction: direction, in: task, at: Date())
        shownPaths.append(path)
        for key in machine.actions.keys(in: .running) {
            guard let entry = controllers[key] else { continue }
            await entry.controller.moveTo(stepPath: path)
        }
    }

    /// The step's clips are made before it is shown, so its `start` prompt is heard as it
    /// shows; then `stepShown` is published and the prompts are set up.
    ///
    /// A device hears a prompt only after the silence already written to the held stream and its
    /// own delay (50 ms to a quarter of a second and more). So that a step's time-0 prompts are
    /// heard as it shows on any device, they are scheduled at the earliest moment the voice can
    /// be heard (plus a margin for handing them over) and `stepShown` is published at that
    /// moment, not before (docs/session.md, "A move"); a voice that cannot say when speaks them
    /// as the step shows, as before.
    func presentStep(at location: StepLocation, direction: NavigationDirection) async {
        guard let step = task.step(at: location) else { return }
        let path = task.stepPath(of: location)
        let prompts = spokenPrompts(of: step, at: location)
        await settings.voice?.preload(prompts)
        let startPrompts = prompts.filter { $0.time == 0 }
        // A prompt of the step before that is still being read (the person moved on before it
        // ended) stops, as SageResearch's voice stops for a new prompt, rather than make this
        // one late.
        if !startPrompts.isEmpty { await settings.voice?.interrupt(keepingStepPath: path) }
        if !startPrompts.isEmpty, let shownAt = await startPromptTime() {
            // The device is written ahead of what it plays: the prompt's notices may come before
            // its step is shown, and wait for it.
            heldNotices = HeldNotices(stepPath: path)
            for prompt in startPrompts {
                await speakNow(prompt.text, stepPath: path, key: prompt.key, scheduledAtMonotonic: shownAt)
            }
            let wait = shownAt - RecordingClock.monotonic()
            if wait > 0 { try? await Task.sleep(for: .seconds(wait)) }
            publishStepShown(step, location: location, path: path, direction: direction)
            releaseHeldNotices()
            await prepareVoice(for: step, path: path, prompts: prompts, shownUptime: nil)
        } else {
            let shown = publishStepShown(step, location: location, path: path, direction: direction)
            await prepareVoice(for: step, path: path, prompts: prompts, shownUptime: shown.uptime)
        }
    }

    /// The CLOCK_MONOTONIC time at which a step's `start` prompt can be heard and the step
    /// shown: the voice's earliest onset and `startPromptMargin`; nil when the voice cannot say,
    /// or says something beyond `longestStartPromptLead` (a device that is not measured right
    /// would hold every step back). A run's first step may wait for the stream held from the
    /// run's start to settle, at most `longestStartPromptLead` too.
    func startPromptTime() async -> Double? {
        guard let onset = await settings.voice?.earliestOnset(waitingUpTo: Self.longestStartPromptLead) else { return nil }
        let time = onset + Self.startPromptMargin
        let lead = time - RecordingClock.monotonic()
        return lead > 0 && lead <= Self.longestStartPromptLead ? time : nil
    }

    /// Time for a `start` prompt to reach the playback thread before its moment: the thread
    /// wakes at real-time priority within a millisecond; the session's hand-over may take longer
    /// on a loaded board.
    static let startPromptMargin = 0.01
    /// The longest a step is held back so that its `start` prompt is heard as it shows.
    static let longestStartPromptLead = 1.0

    @discardableResult
    func publishStepShown(_ step: Step, location: StepLocation, path: String, direction: NavigationDirection) -> SessionEvent {
        events.publish(.stepShown(StepShown(
            stepPath: path, step: shownProperties(of: step, at: location), type: step.type.rawValue, direction: direction,
            progress: machine.navigator.progress, allowedActions: machine.allowedActions(on: step),
            duration: step.kind.isTimed ? step.effectiveDuration : nil,
            previousResult: results.previousResult(for: task.identifiers(along: location)),
            cohorts: machine.navigator.cohorts.sorted(),
            hasStepBefore: machine.navigator.hasStepBefore, hasStepAfter: machine.navigator.hasStepAfter,
            transitionsAutomatically: step.transitionsAutomatically,
            startsTimerAutomatically: Self.startsTimerItself(step))))
    }

    /// `stepShown.startsTimerAutomatically`: the step has a timer and the session starts it as
    /// the step shows (once its permissions are answered), so a front end sends no `timer.start`.
    static func startsTimerItself(_ step: Step) -> Bool {
        step.kind.isTimed && SessionMachine.startsTimerAutomatically(step)
    }

    // MARK: Voice

    /// A step's spoken instructions at their seconds of the step timer, each with the key it
    /// came from (which selects a recorded clip).
    /// The `%@` of each text names the hand (docs/task-format.md, "Hands").
    func spokenPrompts(of step: Step, at location: StepLocation) -> [StepPrompt] {
        let entries = SpokenInstructionSchedule.entries(for: step)
        let keyed = Dictionary((step.spokenInstructions ?? [:]).map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return entries.map { StepPrompt(time: $0.time, text: machine.handText($0.text, at: location), key: keyed[$0.text]) }
    }

    /// The step's keys as `stepShown` carries them: the `%@` of its title, subtitle, text,
    /// detail and spoken instructions names the hand (docs/task-format.md, "Hands").
    func shownProperties(of step: Step, at location: StepLocation) -> [String: JSONValue] {
        var properties = step.properties
        for key in HandText.formattedKeys {
            if case .string(let text)? = properties[key] { properties[key] = .string(machine.handText(text, at: location)) }
        }
        if case .object(var spoken)? = properties["spokenInstructions"] {
            for (key, value) in spoken {
                if case .string(let text) = value { spoken[key] = .string(machine.handText(text, at: location)) }
            }
            properties["spokenInstructions"] = .object(spoken)
        }
        return properties
    }

    /// Time-0 prompts are spoken as the step shows (SageResearch 4 speaks `start` then, even when
    /// the timer starts later), scheduled at the step's `stepShown` time so that prompts.json
    /// shows how late they were heard; the rest wait for the timer.
    /// `shownUptime` nil: the time-0 prompts were scheduled already.
    func prepareVoice(for step: Step, path: String, prompts: [StepPrompt], shownUptime: Double?) async {
        if let shownUptime {
            let shownMonotonic = shownUptime - RecordingClock.boottimeOffset()
            for prompt in prompts where prompt.time == 0 {
                await speakNow(prompt.text, stepPath: path, key: prompt.key, scheduledAtMonotonic: shownMonotonic)
            }
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
        if let held = heldNotices, notice.stepPath == held.stepPath {
            heldNotices?.notices.append(notice)
            return
        }
        switch notice {
        case .promptStarted(let stepPath, let text, let scheduled, let onset, let heardBy):
            if !text.hasPrefix("<") {
                prompts.append(RunManifest.Prompt(stepPath: stepPath, text: text, scheduledUptime: scheduled ?? onset, spokenUptime: onset,
                                                  heardBy: heardBy))
            }
            events.publish(.promptSpoken(stepPath: stepPath, text: text, scheduledUptime: scheduled, onsetUptime: onset))
            _ = machine.handle(.promptStarted(stepPath: stepPath, text: text), at: RecordingClock.monotonic())
        case .promptFinished(let stepPath, let text, let onset, let end, let heardBy):
            // The finish carries the best measure of the onset: the latest record of this prompt
            // not yet finished takes it (prompts.json is written again as the run ends).
            if let index = prompts.lastIndex(where: { $0.stepPath == stepPath && $0.text == text && $0.endUptime == nil }) {
                prompts[index].spokenUptime = onset
                prompts[index].heardBy = heardBy
                prompts[index].endUptime = end
            }
            events.publish(.promptFinished(stepPath: stepPath, text: text, endUptime: end))
        case .playbackFailed(let message):
            events.publish(.warning(message: message, identifier: nil))
        case .playedOut(let token):
            voiceHeard.advance(to: token)
        }
    }

    /// The step whose prompts' notices waited is shown: they are taken now, in order.
    func releaseHeldNotices() {
        let held = heldNotices?.notices ?? []
        heldNotices = nil
        held.forEach(voiceNotice)
    }

    /// Waits until the prompts and sounds already handed to the voice have been heard and their
    /// notices taken (prompts.json then has the run's last prompts, "All done." of a completion
    /// step among them); bounded by the voice (`SessionVoice.finishSpeaking()`).
    func waitForVoice() async {
        guard let voice = settings.voice, !voiceHeard.isEnded else { return }
        let token = await voice.finishSpeaking()
        guard voiceHeard.mustWait(for: token) else { return }
        await withCheckedContinuation { voiceHeard.enqueue(token, $0) }
    }

    /// The voice's notices ended (the voice shut down, or the session's work is cancelled):
    /// nobody waits for a notice that cannot come.
    func endVoiceNotices() {
        voiceHeard.end()
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
                // Stamped as it wakes, checked by the machine when its turn comes: a move or
                // pause may have come first.
                try? await self.submit(.event(.clockDue(generation: generation)))
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
