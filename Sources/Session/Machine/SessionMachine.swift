import AsyncActions
import Foundation
import TaskModel
import TaskNavigation

/// A task session as plain state (docs/session.md, "The machine"): it takes a command or an
/// event and returns the effects for its caller, the `TaskSession` actor, to carry out, or the
/// `SessionError` that refuses the command. No I/O, no clock, no await; tested table by table
/// on its own, as `AsyncActionLifecycle` is.
///
/// It owns where the session is (`phase`: one enum whose cases carry the step shown with its
/// clock, the permission questions the run waits for, the reason the run ends), the navigator,
/// the permission answers and the phase of every async action. What clients see (`state`,
/// `shown`) is derived from it, never kept beside it. A new kind of step or answer (questions, cohorts,
/// hands) becomes a case of `ShownStep` and transitions here, not a flag on the actor.
struct SessionMachine: Sendable {
    let task: TaskDefinition
    let taskRunUUID: UUID
    /// Where the run is (docs/session.md, "The machine").
    private(set) var phase: Phase = .loaded(resumePoint: nil)
    /// Set only by the machine (`SessionMachine+Questions.swift` changes its cohorts,
    /// `SessionMachine+Hands.swift` its hand order).
    var navigator: TaskNavigator
    /// Orders the hands of a `both` hand selection (SessionMachine+Hands.swift); passed in, so
    /// that tests seed it.
    var handCoin: HandCoin
    /// The permission answers of the run (the open questions are in `phase`).
    private(set) var ledger: PermissionLedger
    /// The run's async actions and their phases.
    private(set) var actions = ActionTable()
    /// The last clock generation handed out (each arming gets a new one).
    private var lastGeneration: UInt64 = 0

    init(task: TaskDefinition, taskRunUUID: UUID, navigator: TaskNavigator, ledger: PermissionLedger, handCoin: HandCoin) {
        self.task = task
        self.handCoin = handCoin
        self.taskRunUUID = taskRunUUID
        self.navigator = navigator
        self.ledger = ledger
    }

    /// True once the run has ended or is ending: nothing but the end is carried out.
    var isEnding: Bool {
        switch phase {
        case .loaded, .started, .waitingForPermission: false
        case .ending, .over: true
        }
    }

    /// Takes `input` at the time it is stamped with and returns the effects to carry out, in
    /// order; a command not allowed now is refused with the error the front end gets.
    mutating func handle(_ input: Stamped) throws(SessionError) -> [Effect] {
        switch input.input {
        case .command(let command): try handle(command, at: input.atMonotonic)
        case .event(let event): handle(event, at: input.atMonotonic)
        }
    }

    /// The saved run's history goes back into the navigator; `start` shows `current` again.
    mutating func restore(history: [StepLocation], runningAsyncActions: [AsyncActionReference], current: StepLocation) throws(NavigationError) {
        try navigator.restore(history: history, runningAsyncActions: runningAsyncActions)
        phase = .loaded(resumePoint: current)
    }

    /// The monotonic time the clock job of `generation` should wake up next; nil when it is
    /// no longer armed (the job ends).
    func clockDeadline(_ generation: UInt64, after now: Double) -> Double? {
        guard !isEnding, let clock = shown?.clock, clock.armed == generation else { return nil }
        return clock.timer.nextDeadline(after: now)
    }

    // MARK: Shared transitions

    /// Shows the step `transition` enters (or none at the end), with a fresh clock for a timed
    /// step, and returns the effects of the move (docs/session.md, "A move"): the step left
    /// ends, actions stop, sections close and open, the new step is shown with its actions and
    /// prompts, its timer is set up; the end of the run follows a move past the last step.
    private mutating func move(_ transition: NavigationTransition, leaving: ShownStep?, exitTarget: Bool, backCommand: Bool = false) -> [Effect] {
        var effects: [Effect] = []
        if let leaving, let step = task.step(at: leaving.location) {
            effects += leave(step, shown: leaving, direction: transition.direction)
        }
        effects += stop(transition.stopAsyncActions.map(\.description))
        if !transition.exitedContainers.isEmpty || !transition.enteredContainers.isEmpty {
            if !backCommand, transition.direction == .backward {
                // A jump back by a forward command leaves its sections forward: their results
                // enter their parents' histories (docs/runs.md), as only the back command does not;
                // the visited sections it enters start new results, as in SageResearch, also when
                // it leaves none (testJumpBackward_From7To5X).
                if !transition.exitedContainers.isEmpty {
                    effects.append(.moveSections(exited: transition.exitedContainers, entered: [], direction: .forward))
                }
                if !transition.enteredContainers.isEmpty {
                    effects.append(.moveSections(exited: [], entered: transition.enteredContainers, direction: transition.direction, resume: false))
                }
            } else {
                effects.append(.moveSections(exited: transition.exitedContainers, entered: transition.enteredContainers, direction: transition.direction))
            }
        }
        guard let location = transition.to, let step = task.step(at: location) else {
            phase.setShown(nil)
            return effects + [.then(.endRun(exitTarget ? .earlyExit : .completed))]
        }
        let clock = step.kind.isTimed ? step.effectiveDuration.map { StepClock(timer: StepTimer(duration: $0)) } : nil
        phase.setShown(ShownStep(location: location, path: task.stepPath(of: location), clock: clock))
        effects.append(.showStep(at: location, direction: transition.direction))
        if !transition.startAsyncActions.isEmpty { effects.append(.createActions(transition.startAsyncActions, on: location)) }
        effects.append(.presentStep(at: location, direction: transition.direction))
        effects += setUp(step, path: task.stepPath(of: location), clocked: clock != nil)
        if isLastCompletionStep(location) {
            // SageResearch's result-ready moment: every recorder stops, the results are written.
            effects += [.stopActiveActions, .writeResults]
            phase.markResultAnnounced()
        }
        return effects + [.writeManifest]
    }

    /// The step shown ends: forward, its `end` prompt is spoken if the timer did not get to it
    /// (what the step still had queued dropped first) and heard before the next step shows; a
    /// step without a timer performs its finish commands, queued prompts are dropped, and its
    /// result gets its end date unless the front end sent it.
    private func leave(_ step: Step, shown: ShownStep, direction: NavigationDirection) -> [Effect] {
        var effects: [Effect] = []
        if direction == .forward, let end = endPrompt(of: shown.location) {
            if shown.endPrompt == .notSpoken { effects += [.voiceEndStep, .speak(end, stepPath: shown.path)] }
            effects.append(.awaitVoice)
        }
        if direction == .forward, shown.clock == nil {
            // A step without a timer finishes when the person moves on.
            effects.append(.performStepCommands(stepPath: shown.path, finishing: true))
        }
        effects.append(.voiceEndStep)
        if shown.result == .shown { effects.append(.endStepResult(at: shown.location)) }
        return effects
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

    /// The location of the step at `path`: the step shown's, else found in the task.
    func location(ofPath path: String) -> StepLocation? {
        if let shown, shown.path == path { return shown.location }
        return task.allLocations().first { task.stepPath(of: $0) == path }
    }

    /// The step just presented starts (docs/session.md, "A move", 8): a step without a timer
    /// runs its start commands (RSDStepViewController's); a timer that starts by itself waits
    /// for the end of the presentation, whose time comes with `stepPresented`.
    private func setUp(_ step: Step, path: String, clocked: Bool) -> [Effect] {
        guard clocked else { return [.performStepCommands(stepPath: path, finishing: false)] }
        return Self.startsTimerAutomatically(step) ? [.then(.stepPresented(stepPath: path))] : []
    }

    /// Starts the step timer at `now` and arms its clock.
    private mutating func startClock(at now: Double) -> [Effect] {
        guard var shown, var clock = shown.clock, clock.timer.start(at: now) else { return [] }
        let generation = nextGeneration()
        clock.armed = generation
        shown.clock = clock
        phase.setShown(shown)
        // Every created action with permission starts with the step timer (docs/async-actions.md).
        return startActions(actions.keys(in: .ready), stepPath: shown.path) + [
            .performStepCommands(stepPath: shown.path, finishing: false),
            .voiceStartTimer(atMonotonic: now),
            .publishTimer(.started(stepPath: shown.path, duration: clock.timer.duration)),
            .armClock(generation: generation),
            .writeManifest,
        ]
    }

    /// Decides to end the run for `reason`, unless it is already ending.
    private mutating func end(_ reason: FinishReason) -> [Effect] {
        var progress: Progress?
        switch phase {
        case .loaded: progress = nil
        case .started(let started): progress = started
        case .waitingForPermission(let started, let wait):
            progress = started
            // Questions still open are denied; nobody is left to answer them.
            for question in wait.questions.values { ledger.record(question, granted: false) }
        case .ending, .over: return []
        }
        progress?.shown?.clock?.armed = nil
        phase = .ending(reason, progress)
        return [.finishRun(reason)]
    }

    private mutating func nextGeneration() -> UInt64 {
        lastGeneration &+= 1
        return lastGeneration
    }

    /// The run's end is carried out: the state clients see is final.
    private mutating func finished(_ reason: FinishReason) {
        phase = .over(reason)
    }

    /// Whether the timer of `step` starts by itself.
    static func startsTimerAutomatically(_ step: Step) -> Bool {
        step.kind == .countdown || step.commands.contains(.startTimerAutomatically) || step.transitionsAutomatically
    }

    /// Whether `action` is hidden on `step`, as SageResearch's step view model decides: the
    /// step's `shouldHideActions` lists it, or the task's does while neither the step nor the
    /// task defines that action in `actions` (a step that gives it its own button keeps it).
    /// Sections hide nothing of their own in SageResearch.
    func hides(_ action: String, on step: Step) -> Bool {
        func lists(_ properties: [String: JSONValue]) -> Bool {
            (properties["shouldHideActions"]?.arrayValue ?? []).contains { $0.stringValue == action }
        }
        func defines(_ properties: [String: JSONValue]) -> Bool {
            properties["actions"]?.objectValue?[action] != nil
        }
        if lists(step.properties) { return true }
        return lists(task.properties) && !defines(step.properties) && !defines(task.properties)
    }
}

// MARK: - Commands

extension SessionMachine {
    /// A command at `now`: its refusal, or the state it moves to and the effects.
    private mutating func handle(_ command: Command, at now: Double) throws(SessionError) -> [Effect] {
        switch command {
        case .start:
            return try start()
        case .forward(let input):
            return try forward(input)
        case .back:
            return try back()
        case .skip(let identifier):
            return try skip(to: identifier)
        case .abandon:
            switch phase {
            case .started, .waitingForPermission: break
            case .loaded, .ending, .over: throw notRunning("abandon")
            }
            // The step shown gets its end date, the lowest task or section the answer (Sage's _abandonAssessment).
            let ending = navigator.currentLocation.map { [Effect.endStepResult(at: $0)] } ?? []
            return ending + [.recordAbandonment(ownerLocation: navigator.currentLocation?.parent ?? .root)] + end(.abandoned)
        case .startTimer:
            try checkMovable("start the timer")
            guard let clock = shown?.clock, case .notStarted = clock.timer.phase else {
                throw SessionError(.invalidState, shown?.clock == nil
                    ? "The step shown has no timer; only active and countdown steps do."
                    : "The step timer already started; pause or resume it instead.")
            }
            return startClock(at: now)
        case .pauseTimer:
            guard state == .running, var shown, var clock = shown.clock, clock.timer.isRunning,
                  let elapsed = clock.timer.pause(at: now) else {
                throw SessionError(.invalidState, "There is no running step timer to pause (the session is \(state)).")
            }
            clock.armed = nil
            shown.clock = clock
            phase.setShown(shown)
            let speakWarning = task.step(at: shown.location)?.commands.contains(.speakWarningOnPause) ?? false
            return [.voicePauseTimer(speakWarning: speakWarning), .publishTimer(.paused(stepPath: shown.path, elapsed: elapsed)), .writeManifest]
        case .resumeTimer:
            guard state == .paused, var shown, var clock = shown.clock, clock.timer.isPaused, clock.timer.resume(at: now) else {
                throw SessionError(.invalidState, "The step timer is not paused (the session is \(state)); there is nothing to resume.")
            }
            let generation = nextGeneration()
            clock.armed = generation
            shown.clock = clock
            phase.setShown(shown)
            return [
                .voiceResumeTimer, .publishTimer(.resumed(stepPath: shown.path, elapsed: clock.timer.elapsed(at: now))),
                .armClock(generation: generation), .writeManifest,
            ]
        case .answerPermission(let id, let granted):
            guard let effects = answer(id, granted: granted, byTimeout: false, at: now) else {
                throw SessionError(.invalidArgument, "There is no open permission request \(id); answer one of \(openPermissionRequests.map(String.init).joined(separator: ", ").ifEmpty("none")).")
            }
            return effects
        case .cancel(let save):
            guard !isEnding else { throw notRunning("cancel") }
            return end(save ? .saved : .discarded)
        case .interrupt:
            return end(.interrupted)
        }
    }

    private mutating func start() throws(SessionError) -> [Effect] {
        guard case .loaded(let resumePoint) = phase else {
            throw SessionError(.invalidState, "The run \(taskRunUUID) was already started (it is \(state)); load the task again to run it again.")
        }
        if let resumePoint {
            phase = .started(Progress())
            // The actions of the saved step's sections that had started and not stopped record again.
            let transition = NavigationTransition(
                from: nil, to: resumePoint, direction: .forward, startAsyncActions: navigator.runningAsyncActions,
                startsWithStepTimer: task.step(at: resumePoint)?.kind.isTimed ?? false)
            return [.resumeResults(stepPath: task.stepPath(of: resumePoint)), .voiceHoldStream] + move(transition, leaving: nil, exitTarget: false)
        }
        let transition: NavigationTransition
        do throws(NavigationError) { transition = try navigator.start() } catch { throw SessionError(.invalidState, error.description) }
        phase = .started(Progress())
        return [.beginResults, .voiceHoldStream] + move(transition, leaving: nil, exitTarget: false)
    }

    private mutating func forward(_ input: StepResultInput) throws(SessionError) -> [Effect] {
        // Checked here, with the step it moves from: a step that ended on its own between the
        // front end's send and this command is not left a second time.
        if let expected = input.stepPath, let shown = navigator.currentStepPath, expected != shown {
            throw SessionError(.stepNotShown, "The forward names the step \"\(expected)\" but \"\(shown)\" is shown; answer the step shown.",
                               shownStepPath: shown)
        }
        try checkMovable("go forward")
        guard let step = navigator.currentStep, let location = navigator.currentLocation else { throw notRunning("go forward") }
        try Self.validate(input, for: step)
        var decision = try decideForward(input, from: step)
        // The hand selection, once its answer is accepted, is recorded as MotorControl's collection.
        decision.input = try recordHands(input, for: step, keeping: decision.input)
        let cohorts = navigator.cohorts
        navigator.cohorts = decision.cohorts
        let transition: NavigationTransition
        do throws(NavigationError) { transition = try navigator.goForward(skipToIdentifier: decision.target) } catch {
            navigator.cohorts = cohorts
            throw SessionError(.invalidArgument, error.description)
        }
        var leaving = shown
        leaving?.result = .frontEnd
        let exit = (decision.target ?? step.nextStepIdentifier) == "exit"
        return [.recordStepResult(decision.input, at: location)] + move(transition, leaving: leaving, exitTarget: exit)
    }

    private mutating func back() throws(SessionError) -> [Effect] {
        try checkMovable("go back")
        guard let step = navigator.currentStep else { throw notRunning("go back") }
        if let refusal = refusal(of: .back, on: step) { throw refusal }
        let transition: NavigationTransition
        do throws(NavigationError) { transition = try navigator.goBack() } catch { throw SessionError(.notAllowed, error.description) }
        return move(transition, leaving: shown, exitTarget: false, backCommand: true)
    }

    private mutating func skip(to identifier: String?) throws(SessionError) -> [Effect] {
        try checkMovable("skip")
        guard let step = navigator.currentStep else { throw notRunning("skip") }
        if let refusal = refusal(of: .skip, on: step) { throw refusal }
        let target = identifier ?? step.actionSkipIdentifiers["skip"]
        let cohorts = navigator.cohorts
        if (target ?? step.nextStepIdentifier) == nil { navigator.cohorts = cohortsAfterSkipping(step) }
        let transition: NavigationTransition
        do throws(NavigationError) { transition = try navigator.skip(to: target) } catch {
            navigator.cohorts = cohorts
            throw SessionError(.invalidArgument, error.description)
        }
        return move(transition, leaving: shown, exitTarget: (target ?? step.nextStepIdentifier) == "exit")
    }

    /// The answers of a forward command: each named, none twice.
    static func validate(_ input: StepResultInput, for step: Step) throws(SessionError) {
        var seen: Set<String> = []
        for answer in input.answers {
            guard !answer.identifier.isEmpty else {
                throw SessionError(.invalidArgument, "An answer of step \"\(step.identifier)\" has an empty identifier; name each answer after its question.")
            }
            guard seen.insert(answer.identifier).inserted else {
                throw SessionError(.invalidArgument, "Step \"\(step.identifier)\" got two answers named \"\(answer.identifier)\"; send each answer once.")
            }
        }
    }

    /// Refuses `what` (a move or the timer's start) unless the run is started and waits for no
    /// permission answer.
    func checkMovable(_ what: String) throws(SessionError) {
        switch phase {
        case .started: return
        case .waitingForPermission(_, let wait):
            throw SessionError(.permissionPending, "Answer the permission request \(wait.ids.map(String.init).joined(separator: ", ")) before you \(what).")
        case .loaded, .ending, .over:
            throw notRunning(what)
        }
    }

    func notRunning(_ what: String) -> SessionError {
        switch state {
        case .loaded: SessionError(.invalidState, "The run \(taskRunUUID) has not started; start it before you \(what).")
        default: SessionError(.invalidState, "The run \(taskRunUUID) is \(state); it cannot \(what). Load the task again, or resume a saved run.")
        }
    }
}

// MARK: - Events

extension SessionMachine {
    /// An event at `now`: what follows from it. Events are never refused; one that no longer
    /// fits the state (a tick of a disarmed clock, a deadline of an answered question) does nothing.
    mutating func handle(_ event: Event, at now: Double) -> [Effect] {
        switch event {
        case .clockDue(let generation):
            guard !isEnding, var shown, var clock = shown.clock, clock.armed == generation else { return [] }
            if clock.timer.finishIfDue(at: now) {
                clock.armed = nil
                shown.clock = clock
                if task.step(at: shown.location)?.spokenInstructions?["end"] != nil { shown.endPrompt = .spoken }
                phase.setShown(shown)
                return timerEnded(shown)
            }
            guard clock.timer.isRunning else { return [] }
            return [.publishTimer(.tick(stepPath: shown.path, elapsed: clock.timer.elapsed(at: now).rounded(), remaining: clock.timer.remaining(at: now).rounded()))]

        case .permissionDeadline(let id):
            guard case .waitingForPermission(_, let wait) = phase, let question = wait.questions[id], question.deadline <= now + 0.001 else { return [] }
            return answer(id, granted: false, byTimeout: true, at: now) ?? []

        case .promptStarted(let stepPath, let text):
            // The timer spoke the step's `end` prompt: it is not spoken again when the step is left.
            guard var shown, shown.path == stepPath, let clock = shown.clock, clock.timer.duration > 0,
                  let end = endPrompt(of: shown.location), end == text else { return [] }
            shown.endPrompt = .spoken
            phase.setShown(shown)
            return []

        case .stepPresented(let stepPath):
            // A run waiting for permissions starts the timer as the last answer settles them.
            guard case .started(let progress) = phase, let shown = progress.shown, shown.path == stepPath else { return [] }
            return startClock(at: now)

        case .timerEndCarriedOut(let stepPath):
            guard !isEnding, let shown, shown.path == stepPath, let step = task.step(at: shown.location),
                  step.transitionsAutomatically else { return [] }
            do {
                let transition = try navigator.goForward(skipToIdentifier: nil)
                return move(transition, leaving: shown, exitTarget: step.nextStepIdentifier == "exit")
            } catch {
                return [.warn("The step \(stepPath) could not move on by itself: \(error)")]
            }

        case .actionCreated(let reference, let location):
            return actionCreated(reference, on: location, at: now)

        case .deviceChecked(let key, let failure):
            // Re-checked: the run may have ended or the action been stopped meanwhile.
            guard actions[key] == .preparing else { return [] }
            if let failure { return fail(key, code: failure.code, message: failure.message) }
            actions.set(key, .ready)
            // An action created while its owner's timer already runs starts at once.
            guard let shown, shown.clock?.timer.isRunning == true else { return [] }
            return startActions([key], stepPath: shown.path)

        case .actionStartFailed(let key, let message):
            return fail(key, code: .deviceFailed, message: message)

        case .stopRequested(let keys):
            return stop(keys ?? actions.activeKeys)

        case .cancelRequested:
            let active = actions.activeKeys
            for key in active { actions.set(key, .cancelled) }
            return active.isEmpty ? [] : [.cancelControllers(active)]

        case .actionStopped(let key, let outcome):
            // Re-checked: a failure handled meanwhile has recorded the error itself.
            guard actions[key] == .stopped else { return [] }
            switch outcome {
            case .results:
                return [.recordActionResults(key: key)]
            case .errorResult(let result):
                // A failure before or during the stop, announced like one while recording.
                actions.set(key, .running)
                return fail(key, code: .deviceFailed, message: result.errorDescription, result: result)
            case .failed(let message):
                actions.set(key, .running)
                return fail(key, code: .deviceFailed, message: message)
            }

        case .actionFailed(let key, let result):
            return fail(key, code: .deviceFailed, message: result.errorDescription, result: result)

        case .endRun(let reason):
            return end(reason)

        case .runFinished(let reason):
            finished(reason)
            return []
        }
    }

    /// Decides the permissions of the action just created: policy first, the front end when
    /// the policy says ask, then the controller's own check that its device opens.
    private mutating func actionCreated(_ reference: AsyncActionReference, on location: StepLocation, at now: Double) -> [Effect] {
        let key = reference.description
        actions.create(reference)
        var effects: [Effect] = []
        var waiting = false
        for permission in reference.configuration.permissionTypes {
            if case .waitingForPermission(let progress, var wait) = phase, wait.join(permission, key: key) {
                phase = .waitingForPermission(progress, wait)
                waiting = true
                continue
            }
            switch ledger.request(permission, for: key, now: now) {
            case .granted:
                continue
            case .denied:
                return effects + fail(key, code: .permissionDenied, message: "Permission \"\(permission.rawValue)\" was denied, so \(reference.identifier) does not record. Change the permission policy or answer the request to record it.")
            case .ask(let question):
                guard wait(for: question) else {
                    // The run is ending: nobody is left to answer (as `end` denies what is open).
                    ledger.record(question, granted: false)
                    return effects + fail(key, code: .permissionDenied, message: "Permission \"\(permission.rawValue)\" was not asked, since the run is ending, so \(reference.identifier) does not record.")
                }
                waiting = true
                effects.append(.askPermission(question, actionIdentifier: reference.identifier, on: location))
            }
        }
        guard waiting else { return effects + [.requestDevice(key: key)] }
        actions.set(key, .asking)
        return effects
    }

    /// The run waits for the answer to `question`, just asked: a started run starts waiting
    /// with the progress it goes back to, a waiting one adds it. False when the run is ending.
    private mutating func wait(for question: PermissionLedger.Question) -> Bool {
        switch phase {
        case .started(let progress):
            phase = .waitingForPermission(progress, PermissionWait(question))
        case .waitingForPermission(let progress, var wait):
            wait.add(question)
            phase = .waitingForPermission(progress, wait)
        case .loaded, .ending, .over:
            return false
        }
        return true
    }

    /// The answer to the open question `id` at `now`, recorded for the run; the last one
    /// returns the run to `started` with the progress it held. Nil when no such question is open.
    private mutating func answer(_ id: UInt64, granted: Bool, byTimeout: Bool, at now: Double) -> [Effect]? {
        guard case .waitingForPermission(let progress, var wait) = phase, let question = wait.remove(id) else { return nil }
        ledger.record(question, granted: granted)
        phase = wait.questions.isEmpty ? .started(progress) : .waitingForPermission(progress, wait)
        return permissionAnswered(question, granted: granted, byTimeout: byTimeout, settled: wait.questions.isEmpty, at: now)
    }

    /// The answer to `question` (recorded in the ledger, out of the wait) at `now`: the actions
    /// it granted check their devices once no other question of theirs is open, the ones it
    /// denied fail; then, when it `settled` the last question, the session goes on.
    private mutating func permissionAnswered(_ question: PermissionLedger.Question, granted: Bool, byTimeout: Bool, settled: Bool, at now: Double) -> [Effect] {
        var effects: [Effect] = [.publishPermissionAnswered(question, granted: granted)]
        for key in question.waiting where actions[key] == .asking {
            if granted {
                // Other permissions of the same action may still be open.
                if case .waitingForPermission(_, let wait) = phase, wait.holds(key) { continue }
                actions.set(key, .preparing)
                effects.append(.requestDevice(key: key))
            } else {
                let how = byTimeout ? "was not answered within \(String(format: "%g", ledger.timeout)) s" : "was denied"
                let identifier = actions.reference(key)?.identifier ?? key
                effects += fail(key, code: .permissionDenied, message: "Permission \"\(question.permission.rawValue)\" \(how), so \(identifier) does not record.")
            }
        }
        return effects + (settled ? settlePermissions(at: now) : [])
    }

    /// The last open question was answered at `now` (the run is `started` again, unless a
    /// denial ended it): the run goes on, and the timer of a step that starts it by itself,
    /// held for the answers, starts then. The actions just granted start with it once their
    /// devices are checked (`deviceChecked` on a running timer).
    private mutating func settlePermissions(at now: Double) -> [Effect] {
        guard case .started = phase else { return [] }
        // The manifest says the run goes on; a timer started writes it already.
        guard let shown, let step = task.step(at: shown.location), let clock = shown.clock,
              case .notStarted = clock.timer.phase, Self.startsTimerAutomatically(step) else { return [.writeManifest] }
        return startClock(at: now)
    }

    /// Stops the actions `keys` that run and cancels those that never started (their
    /// controllers are told in that order); the others are over already.
    private mutating func stop(_ keys: [String]) -> [Effect] {
        var stopping: [String] = [], cancelling: [String] = []
        for key in keys {
            switch actions[key] {
            case .running:
                actions.set(key, .stopped)
                stopping.append(key)
            case .preparing, .asking, .ready:
                actions.set(key, .cancelled)
                cancelling.append(key)
            case .stopped, .failed, .cancelled, nil:
                continue
            }
        }
        return (cancelling.isEmpty ? [] : [.cancelControllers(cancelling)]) + (stopping.isEmpty ? [] : [.stopControllers(stopping)])
    }

    /// Starts the ready actions `keys`.
    private mutating func startActions(_ keys: [String], stepPath: String) -> [Effect] {
        let starting = keys.filter { actions[$0] == .ready }
        guard !starting.isEmpty else { return [] }
        for key in starting { actions.set(key, .running) }
        return [.startActions(starting, stepPath: stepPath)]
    }

    /// The action `key` failed (denied, lost its device, failed its start or stop): its error
    /// result is recorded once, a controller that never ran is cancelled, and the run ends when
    /// the step or task says `shouldEndOnInterrupt`.
    private mutating func fail(_ key: String, code: AsyncActionError.Code, message: String, result: ErrorResult? = nil) -> [Effect] {
        guard let phase = actions[key], phase.isActive else { return [] }
        actions.set(key, .failed)
        var effects: [Effect] = [.recordActionFailure(key: key, code: code, message: message, result: result)]
        if phase != .running { effects.append(.cancelControllers([key])) }
        effects.append(.writeManifest)
        let endsOnInterrupt = navigator.currentStep?.shouldEndOnInterrupt == true
            || task.properties["shouldEndOnInterrupt"] == .bool(true)
        return effects + (endsOnInterrupt ? end(.failed) : [])
    }

    /// The step timer ended: the actions whose stop step this is stop now, the finish sound
    /// plays, and the step moves on by itself when it says so.
    private mutating func timerEnded(_ shown: ShownStep) -> [Effect] {
        [.publishTimer(.finished(stepPath: shown.path))] + stop(navigator.stepTimerFinished().map(\.description)) + [
            .performStepCommands(stepPath: shown.path, finishing: true),
            .writeManifest,
            .then(.timerEndCarriedOut(stepPath: shown.path)),
        ]
    }
}
