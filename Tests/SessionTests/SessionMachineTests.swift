import Foundation
import Testing
import TaskModel
import TaskNavigation
import AsyncActions

@testable import Session

/// The session machine on its own, without I/O: each row brings the machine to a state with
/// earlier inputs, feeds one more, and names the effects it must return (or the refusal) and
/// the state it must leave.
@Suite("Session machine")
struct SessionMachineTests {
    typealias Stamped = SessionMachine.Stamped
    typealias Effect = SessionMachine.Effect

    /// t: intro, walk (10 s timer, `end` prompt, moves on by itself), check (a question),
    /// done (completion).
    static let task = #"""
    {"identifier": "t", "type": "assessment", "steps": [
        {"identifier": "intro", "type": "instruction", "shouldHideActions": ["skip"]},
        {"identifier": "walk", "type": "active", "duration": 10, "commands": ["transitionAutomatically", "speakWarningOnPause"],
         "spokenInstructions": {"0": "Walk.", "end": "Stop."}},
        {"identifier": "check", "type": "instruction"},
        {"identifier": "done", "type": "completion"}
    ]}
    """#

    /// r: intro, walk (10 s, records motion), done; `extra` goes into the task's JSON,
    /// `walk` into the walk step's.
    static func recorded(_ extra: String = "", walk: String = "") -> String {
        #"""
        {"identifier": "r", "type": "assessment", \#(extra)
         "asyncActions": [{"identifier": "motion", "type": "motion", "startStepIdentifier": "walk", "stopStepIdentifier": "walk"}],
         "steps": [
            {"identifier": "intro", "type": "instruction"},
            {"identifier": "walk", "type": "active", "duration": 10\#(walk)},
            {"identifier": "done", "type": "completion"}
        ]}
        """#
    }

    static let uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
    static let lost = ErrorResult(identifier: "motion_error", startDate: Date(timeIntervalSince1970: 0), endDate: Date(timeIntervalSince1970: 1),
                                  errorDescription: "The sensor is gone.", errorDomain: "AsyncActionError", errorCode: 2)

    static func machine(policy: PermissionPolicy = PermissionPolicy(), task text: String = task) throws -> SessionMachine {
        let loaded = try TaskLoader().load(data: Data(text.utf8), displayName: "inline", baseDirectory: URL(fileURLWithPath: "/"))
        guard case .task(let task) = loaded.document else { throw SessionError(.invalidArgument, "not a task") }
        return SessionMachine(
            task: task, taskRunUUID: uuid, navigator: TaskNavigator(task: task),
            ledger: PermissionLedger(policy: policy, timeout: 120), handCoin: HandCoin(seed: 1))
    }

    static let intro = StepLocation([0]), walk = StepLocation([1]), check = StepLocation([2]), done = StepLocation([3])

    /// What a row expects of its last input.
    enum Outcome: Sendable {
        /// These effects, in order.
        case effects([Effect])
        case refused(SessionError.Code)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var before: [Stamped]
        var input: Stamped
        var outcome: Outcome
        var state: SessionState
        var testDescription: String { name }
    }

    /// The effects of showing the step at `location` (`path`) moving forward (the task has no
    /// actions), set up in the same call: a step without a timer runs its start commands once
    /// presented; `walk`, whose timer starts by itself, has it started by `stepPresented`, fed
    /// back once the presentation's awaits are over and stamped then.
    static func show(_ location: StepLocation, _ path: String) -> [Effect] {
        [.showStep(at: location, direction: .forward), .presentStep(at: location, direction: .forward),
         path == "t/walk" ? .then(.stepPresented(stepPath: path)) : .performStepCommands(stepPath: path, finishing: false)]
    }

    static let started: [Stamped] = [.command(.start, at: 0)]
    static let onWalk: [Stamped] = started + [.command(.forward(StepResultInput()), at: 1)]
    static let walking: [Stamped] = onWalk + [.command(.startTimer, at: 100)]
    static let paused: [Stamped] = walking + [.command(.pauseTimer, at: 103)]

    static let rows: [Row] = [
        Row(name: "start shows the first step", before: [], input: .command(.start, at: 0),
            outcome: .effects([.beginResults, .voiceHoldStream] + show(intro, "t/intro") + [.writeManifest]), state: .running),
        Row(name: "start twice is refused", before: started, input: .command(.start, at: 0),
            outcome: .refused(.invalidState), state: .running),
        Row(name: "forward before start is refused", before: [], input: .command(.forward(StepResultInput()), at: 0),
            outcome: .refused(.invalidState), state: .loaded),
        Row(name: "forward records the front end's result; the step left without a timer performs its finish commands",
            before: started, input: .command(.forward(StepResultInput()), at: 0),
            outcome: .effects([
                .recordStepResult(StepResultInput(), at: intro), .performStepCommands(stepPath: "t/intro", finishing: true), .voiceEndStep,
            ] + show(walk, "t/walk") + [.writeManifest]), state: .running),
        Row(name: "forward naming the step shown is carried out",
            before: started, input: .command(.forward(StepResultInput(stepPath: "t/intro")), at: 0),
            outcome: .effects([
                .recordStepResult(StepResultInput(stepPath: "t/intro"), at: intro), .performStepCommands(stepPath: "t/intro", finishing: true),
                .voiceEndStep,
            ] + show(walk, "t/walk") + [.writeManifest]), state: .running),
        Row(name: "forward naming a step no longer shown is refused (it moved on by itself meanwhile)",
            before: onWalk, input: .command(.forward(StepResultInput(stepPath: "t/intro")), at: 0),
            outcome: .refused(.stepNotShown), state: .running),
        Row(name: "an answer without identifier is refused", before: started,
            input: .command(.forward(StepResultInput(answers: [.init(identifier: "", value: .bool(true))])), at: 0),
            outcome: .refused(.invalidArgument), state: .running),
        Row(name: "two answers with one identifier are refused", before: started,
            input: .command(.forward(StepResultInput(answers: [.init(identifier: "a", value: .bool(true)), .init(identifier: "a", value: .bool(false))])), at: 0),
            outcome: .refused(.invalidArgument), state: .running),
        Row(name: "skip hidden by shouldHideActions is refused", before: started, input: .command(.skip(to: nil), at: 0),
            outcome: .refused(.notAllowed), state: .running),
        Row(name: "back at the first step is refused", before: started, input: .command(.back, at: 0),
            outcome: .refused(.notAllowed), state: .running),
        Row(name: "a step without a timer is set up in the move's own call: its start commands follow its presentation",
            before: [], input: .command(.start, at: 0),
            outcome: .effects([.beginResults, .voiceHoldStream, .showStep(at: intro, direction: .forward), .presentStep(at: intro, direction: .forward),
                               .performStepCommands(stepPath: "t/intro", finishing: false), .writeManifest]), state: .running),
        Row(name: "a step without a timer has none to start once presented", before: started, input: .event(.stepPresented(stepPath: "t/intro"), at: 1),
            outcome: .effects([]), state: .running),
        Row(name: "the timer of a step without one is refused", before: started, input: .command(.startTimer, at: 1),
            outcome: .refused(.invalidState), state: .running),
        Row(name: "the timer of a step that moves on by itself starts at the time its presentation ended",
            before: onWalk, input: .event(.stepPresented(stepPath: "t/walk"), at: 1.5),
            outcome: .effects([
                .performStepCommands(stepPath: "t/walk", finishing: false),
                .voiceStartTimer(atMonotonic: 1.5), .publishTimer(.started(stepPath: "t/walk", duration: 10)),
                .armClock(generation: 1), .writeManifest,
            ]), state: .running),
        Row(name: "the presentation of a step no longer shown starts nothing", before: onWalk,
            input: .event(.stepPresented(stepPath: "t/intro"), at: 1.5), outcome: .effects([]), state: .running),
        Row(name: "a timer started by hand is not started again by the presentation", before: walking,
            input: .event(.stepPresented(stepPath: "t/walk"), at: 100.5), outcome: .effects([]), state: .running),
        Row(name: "starting the timer starts the ready actions, commands, prompts, and arms the clock", before: onWalk,
            input: .command(.startTimer, at: 100),
            outcome: .effects([
                .performStepCommands(stepPath: "t/walk", finishing: false),
                .voiceStartTimer(atMonotonic: 100), .publishTimer(.started(stepPath: "t/walk", duration: 10)),
                .armClock(generation: 1), .writeManifest,
            ]), state: .running),
        Row(name: "the timer started twice is refused", before: walking, input: .command(.startTimer, at: 101),
            outcome: .refused(.invalidState), state: .running),
        Row(name: "a tick of the armed clock", before: walking, input: .event(.clockDue(generation: 1), at: 101),
            outcome: .effects([.publishTimer(.tick(stepPath: "t/walk", elapsed: 1, remaining: 9))]), state: .running),
        Row(name: "a tick of a clock no longer armed does nothing", before: walking, input: .event(.clockDue(generation: 7), at: 101),
            outcome: .effects([]), state: .running),
        Row(name: "pausing speaks the warning, disarms the clock", before: walking, input: .command(.pauseTimer, at: 103),
            outcome: .effects([.voicePauseTimer(speakWarning: true), .publishTimer(.paused(stepPath: "t/walk", elapsed: 3)), .writeManifest]),
            state: .paused),
        Row(name: "the paused clock's tick does nothing", before: paused, input: .event(.clockDue(generation: 1), at: 104),
            outcome: .effects([]), state: .paused),
        Row(name: "pausing a paused timer is refused", before: paused, input: .command(.pauseTimer, at: 104),
            outcome: .refused(.invalidState), state: .paused),
        Row(name: "resuming arms a new clock", before: paused, input: .command(.resumeTimer, at: 200),
            outcome: .effects([.voiceResumeTimer, .publishTimer(.resumed(stepPath: "t/walk", elapsed: 3)), .armClock(generation: 2), .writeManifest]),
            state: .running),
        Row(name: "resuming a running timer is refused", before: walking, input: .command(.resumeTimer, at: 104),
            outcome: .refused(.invalidState), state: .running),
        Row(name: "the timer's end stops the step's actions, runs its finish commands, then decides the move", before: walking,
            input: .event(.clockDue(generation: 1), at: 110),
            outcome: .effects([
                .publishTimer(.finished(stepPath: "t/walk")), .performStepCommands(stepPath: "t/walk", finishing: true),
                .writeManifest, .then(.timerEndCarriedOut(stepPath: "t/walk")),
            ]), state: .running),
        Row(name: "a step that moves on by itself does, once its end is carried out and its end prompt heard",
            before: walking + [.event(.clockDue(generation: 1), at: 110)], input: .event(.timerEndCarriedOut(stepPath: "t/walk"), at: 0),
            outcome: .effects([.awaitVoice, .voiceEndStep, .endStepResult(at: walk)] + show(check, "t/check") + [.writeManifest]), state: .running),
        Row(name: "the last completion step stops every action and writes the results",
            before: walking + [.event(.clockDue(generation: 1), at: 110), .event(.timerEndCarriedOut(stepPath: "t/walk"), at: 0)],
            input: .command(.forward(StepResultInput()), at: 0),
            outcome: .effects([
                .recordStepResult(StepResultInput(), at: check), .performStepCommands(stepPath: "t/check", finishing: true), .voiceEndStep,
            ] + show(done, "t/done") + [.stopActiveActions, .writeResults, .writeManifest]), state: .running),
        Row(name: "forward past the last step ends the run as completed",
            before: walking + [.event(.clockDue(generation: 1), at: 110), .event(.timerEndCarriedOut(stepPath: "t/walk"), at: 0),
                               .command(.forward(StepResultInput()), at: 0)],
            input: .command(.forward(StepResultInput()), at: 0),
            outcome: .effects([
                .recordStepResult(StepResultInput(), at: done), .performStepCommands(stepPath: "t/done", finishing: true), .voiceEndStep,
                .then(.endRun(.completed)),
            ]), state: .running),
        // The step shown gets its end date first, as RSDTaskViewModel._abandonAssessment records it.
        Row(name: "abandon records the answer and ends the run", before: started, input: .command(.abandon, at: 0),
            outcome: .effects([.endStepResult(at: StepLocation([0])), .recordAbandonment(ownerLocation: .root), .finishRun(.abandoned)]),
            state: .running),
        Row(name: "abandon before start is refused", before: [], input: .command(.abandon, at: 0),
            outcome: .refused(.invalidState), state: .loaded),
        Row(name: "cancel with save ends the run as saved", before: walking, input: .command(.cancel(save: true), at: 0),
            outcome: .effects([.finishRun(.saved)]), state: .running),
        Row(name: "a command while the run ends is refused", before: walking + [.command(.cancel(save: false), at: 0)],
            input: .command(.forward(StepResultInput()), at: 0), outcome: .refused(.invalidState), state: .running),
        Row(name: "the end is final", before: walking + [.command(.cancel(save: true), at: 0), .event(.runFinished(.saved), at: 0)],
            input: .command(.cancel(save: false), at: 0), outcome: .refused(.invalidState), state: .saved),
        Row(name: "interrupt after the end does nothing", before: started + [.command(.abandon, at: 0), .event(.runFinished(.abandoned), at: 0)],
            input: .command(.interrupt, at: 0), outcome: .effects([]), state: .finished(.abandoned)),
        Row(name: "a failure of an action the run does not have does nothing", before: walking,
            input: .event(.actionFailed(key: "t:none", result: SessionMachineTests.lost), at: 0), outcome: .effects([]), state: .running),
        Row(name: "an unknown permission answer is refused", before: started, input: .command(.answerPermission(id: 3, granted: true), at: 0),
            outcome: .refused(.invalidArgument), state: .running),
    ]

    /// Feeds `input` to `machine` and checks it returns `outcome`.
    static func expect(_ outcome: Outcome, of input: Stamped, on machine: inout SessionMachine) throws {
        switch outcome {
        case .effects(let expected):
            #expect(try machine.handle(input) == expected)
        case .refused(let code):
            do {
                let effects = try machine.handle(input)
                Issue.record("Not refused: \(effects)")
            } catch {
                #expect(error.code == code, "\(error.message)")
            }
        }
    }

    @Test(arguments: rows)
    func transition(_ row: Row) throws {
        var machine = try Self.machine()
        for input in row.before { _ = try machine.handle(input) }
        try Self.expect(row.outcome, of: row.input, on: &machine)
        #expect(machine.state == row.state)
    }

    // MARK: The step shown

    /// SageResearch's rule for a hidden action (RSDStepViewModel): the step's own list, else
    /// the task's unless the step or the task defines the action.
    static let hiddenActions: [(name: String, task: String, step: String, action: String, hidden: Bool)] = [
        ("listed by the step", "", #""shouldHideActions": ["cancel"]"#, "cancel", true),
        ("listed by the task", #""shouldHideActions": ["cancel"],"#, "", "cancel", true),
        ("listed by neither", #""shouldHideActions": ["skip"],"#, #""shouldHideActions": ["goBackward"]"#, "cancel", false),
        ("listed by the task, but the step gives it a button", #""shouldHideActions": ["goBackward"],"#,
         #""actions": {"goBackward": {"type": "default", "buttonTitle": "Previous"}}"#, "goBackward", false),
        ("listed by the task, which defines it itself", #""shouldHideActions": ["cancel"], "actions": {"cancel": {"type": "default", "iconName": "close"}},"#,
         "", "cancel", false),
        ("listed by the step that defines it", "", #""shouldHideActions": ["learnMore"], "actions": {"learnMore": {"type": "default", "text": "x"}}"#,
         "learnMore", true),
    ]

    @Test(arguments: hiddenActions.indices)
    func hiddenAction(index: Int) throws {
        let row = Self.hiddenActions[index]
        let text = #"{"identifier": "h", "type": "assessment", \#(row.task) "steps": [{"identifier": "a", "type": "instruction"\#(row.step.isEmpty ? "" : ", " + row.step)}]}"#
        let machine = try Self.machine(task: text)
        #expect(machine.hides(row.action, on: machine.task.steps[0]) == row.hidden, "\(row.name)")
    }

    @Test("The step left gets its end date unless the front end sent its result")
    func stepResultSource() throws {
        var machine = try Self.machine()
        for input in Self.walking { _ = try machine.handle(input) }
        #expect(machine.shown?.path == "t/walk" && machine.shown?.result == .shown && machine.shown?.clock != nil)
        var back = machine
        #expect(try back.handle(.command(.back, at: 0)).contains(.endStepResult(at: Self.walk)))
        #expect(try !machine.handle(.command(.forward(StepResultInput()), at: 0)).contains(.endStepResult(at: Self.walk)))
    }

    @Test("The end prompt is spoken when the step is left forward, unless the timer spoke it, and heard before the next step shows")
    func endPromptSpokenOnce() throws {
        var machine = try Self.machine()
        for input in Self.walking { _ = try machine.handle(input) }
        #expect(machine.shown?.endPrompt == .notSpoken)
        var unheard = machine
        let forward = try unheard.handle(.command(.forward(StepResultInput()), at: 0))
        // What the step had queued is dropped first, so the wait is for the end prompt alone.
        #expect(Array(forward[1...3]) == [.voiceEndStep, .speak("Stop.", stepPath: "t/walk"), .awaitVoice], "\(forward)")
        #expect(forward.firstIndex(of: .awaitVoice)! < forward.firstIndex { if case .showStep = $0 { true } else { false } }!)
        var backward = machine
        let back = try backward.handle(.command(.back, at: 0))
        #expect(!back.contains(.speak("Stop.", stepPath: "t/walk")) && !back.contains(.awaitVoice))
        _ = try machine.handle(.event(.promptStarted(stepPath: "t/intro", text: "Stop."), at: 0))
        #expect(machine.shown?.endPrompt == .notSpoken)
        _ = try machine.handle(.event(.promptStarted(stepPath: "t/walk", text: "Stop."), at: 0))
        #expect(machine.shown?.endPrompt == .spoken)
        #expect(try !machine.handle(.command(.forward(StepResultInput()), at: 0)).contains(.speak("Stop.", stepPath: "t/walk")))
    }

    @Test("A move disarms the clock of the step left")
    func moveDisarmsTheClock() throws {
        var machine = try Self.machine()
        for input in Self.walking { _ = try machine.handle(input) }
        #expect(machine.clockDeadline(1, after: 100.5) == 101)
        _ = try machine.handle(.command(.forward(StepResultInput()), at: 0))
        #expect(machine.clockDeadline(1, after: 100.5) == nil)
        #expect(try machine.handle(.event(.clockDue(generation: 1), at: 111)).isEmpty)
    }

    // MARK: Actions and permissions

    /// The recorded task moved to its walk step: the machine and the motion action it created.
    static func onRecordedWalk(policy: PermissionPolicy, extra: String = "") throws -> (SessionMachine, AsyncActionReference) {
        var machine = try Self.machine(policy: policy, task: recorded(extra))
        _ = try machine.handle(.command(.start, at: 0))
        let forward = try machine.handle(.command(.forward(StepResultInput()), at: 0))
        let created = forward.compactMap { effect -> AsyncActionReference? in
            if case .createActions(let references, on: Self.walk) = effect { return references.first }
            return nil
        }
        return (machine, try #require(created.first))
    }

    @Test("An action whose permission is granted checks its device, starts with the timer, stops at its stop step and records its results")
    func grantedActionLifecycle() throws {
        var (machine, motion) = try Self.onRecordedWalk(policy: PermissionPolicy())
        let key = motion.description
        #expect(try machine.handle(.event(.actionCreated(motion, on: Self.walk), at: 0)) == [.requestDevice(key: key)])
        #expect(machine.actions[key] == .preparing)
        #expect(try machine.handle(.event(.deviceChecked(key: key, failure: nil), at: 0)).isEmpty)
        #expect(machine.actions[key] == .ready)
        #expect(try machine.handle(.command(.startTimer, at: 100)).prefix(1) == [.startActions([key], stepPath: "r/walk")])
        #expect(machine.actions[key] == .running)
        // Its stop step's timer ends: it stops in the same call.
        #expect(try machine.handle(.event(.clockDue(generation: 1), at: 110)).contains(.stopControllers([key])))
        #expect(try machine.handle(.event(.actionStopped(key: key, outcome: .results), at: 0)) == [.recordActionResults(key: key)])
        #expect(machine.actions[key] == .stopped)
        // A stop asked again does nothing: the action is over.
        #expect(try machine.handle(.event(.stopRequested(keys: nil), at: 0)).isEmpty)
    }

    @Test("A move off an action's stop step stops it in the move's own call, after the step left ends and before the next shows")
    func moveStopsActions() throws {
        var (machine, motion) = try Self.onRecordedWalk(policy: PermissionPolicy())
        let key = motion.description
        _ = try machine.handle(.event(.actionCreated(motion, on: Self.walk), at: 1.1))
        _ = try machine.handle(.event(.deviceChecked(key: key, failure: nil), at: 1.2))
        _ = try machine.handle(.command(.startTimer, at: 2))
        let forward = try machine.handle(.command(.forward(StepResultInput()), at: 5))
        let stops = try #require(forward.firstIndex(of: .stopControllers([key])), "\(forward)")
        #expect(stops > forward.firstIndex(of: .voiceEndStep)! && stops < forward.firstIndex(of: .showStep(at: StepLocation([2]), direction: .forward))!)
        #expect(machine.actions[key] == .stopped)
    }

    @Test("A device that does not open fails its action once, and the controller that never ran is cancelled")
    func deviceCheckFails() throws {
        var (machine, motion) = try Self.onRecordedWalk(policy: PermissionPolicy())
        let key = motion.description
        _ = try machine.handle(.event(.actionCreated(motion, on: Self.walk), at: 0))
        #expect(try machine.handle(.event(.deviceChecked(key: key, failure: AsyncActionError(.permissionDenied, "No IIO device.")), at: 0)) == [
            .recordActionFailure(key: key, code: .permissionDenied, message: "No IIO device.", result: nil), .cancelControllers([key]), .writeManifest,
        ])
        #expect(machine.actions[key] == .failed)
        #expect(try machine.handle(.event(.actionFailed(key: key, result: Self.lost), at: 0)).isEmpty)

        // A type this device has no recorder for keeps its code: the quality check tells it
        // from a denial (docs/quality.md).
        var (other, action) = try Self.onRecordedWalk(policy: PermissionPolicy())
        _ = try other.handle(.event(.actionCreated(action, on: Self.walk), at: 0))
        let effects = try other.handle(.event(.deviceChecked(key: action.description, failure: AsyncActionError(.unsupported, "No distance here.")), at: 0))
        #expect(effects.first == .recordActionFailure(key: action.description, code: .unsupported, message: "No distance here.", result: nil))
    }

    @Test("A stop that hands back an error result is a failure; with shouldEndOnInterrupt it ends the run")
    func stopHandsBackAnError() throws {
        for (extra, ends) in [("", false), (#""shouldEndOnInterrupt": true,"#, true)] {
            var (machine, motion) = try Self.onRecordedWalk(policy: PermissionPolicy(), extra: extra)
            let key = motion.description
            _ = try machine.handle(.event(.actionCreated(motion, on: Self.walk), at: 0))
            _ = try machine.handle(.event(.deviceChecked(key: key, failure: nil), at: 0))
            _ = try machine.handle(.command(.startTimer, at: 100))
            _ = try machine.handle(.event(.stopRequested(keys: [key]), at: 101))
            let failed: [Effect] = [
                .recordActionFailure(key: key, code: .deviceFailed, message: "The sensor is gone.", result: Self.lost), .writeManifest,
            ]
            #expect(try machine.handle(.event(.actionStopped(key: key, outcome: .errorResult(Self.lost)), at: 0)) == failed + (ends ? [.finishRun(.failed)] : []))
            #expect(machine.isEnding == ends)
        }
    }

    @Test("An asked permission holds the moves until it is answered; a grant checks the device")
    func permissionHoldsMoves() throws {
        var (machine, motion) = try Self.onRecordedWalk(policy: PermissionPolicy([.motion: .ask]))
        let key = motion.description
        let asked = try machine.handle(.event(.actionCreated(motion, on: Self.walk), at: 0))
        guard case .askPermission(let question, "motion", Self.walk) = asked.first, asked.count == 1 else { Issue.record("not asked: \(asked)"); return }
        #expect(machine.state == .waitingForPermission && machine.actions[key] == .asking)
        #expect(throws: SessionError(.permissionPending, "Answer the permission request 1 before you go forward.")) {
            _ = try machine.handle(.command(.forward(StepResultInput()), at: 0))
        }
        #expect(try machine.handle(.command(.answerPermission(id: question.id, granted: true), at: 0)) == [
            .publishPermissionAnswered(question, granted: true), .requestDevice(key: key), .writeManifest,
        ])
        #expect(machine.state == .running)
    }

    /// A walk whose timer starts by itself and whose motion recorder asks: the timer waits for
    /// the answer and starts in the very call that takes it, at the answer's time.
    struct SettleRow: Sendable, CustomTestStringConvertible {
        var name: String
        /// The input that settles the question (`id` 1, asked at 1.2, deadline 121.2).
        var settling: Stamped
        /// What it returns after the answer's own effects.
        var effects: [Effect]
        var testDescription: String { name }
    }

    static let key = "r:motion"
    static let timerStarts: [Effect] = [
        .performStepCommands(stepPath: "r/walk", finishing: false), .voiceStartTimer(atMonotonic: 7),
        .publishTimer(.started(stepPath: "r/walk", duration: 10)), .armClock(generation: 1), .writeManifest,
    ]
    static let settleRows: [SettleRow] = [
        SettleRow(name: "a grant checks the device and starts the held timer at the answer's time",
                  settling: .command(.answerPermission(id: 1, granted: true), at: 7), effects: [.requestDevice(key: key)] + timerStarts),
        SettleRow(name: "a denial fails the action and still starts the held timer",
                  settling: .command(.answerPermission(id: 1, granted: false), at: 7),
                  effects: [.recordActionFailure(key: key, code: .permissionDenied, message: "Permission \"motion\" was denied, so motion does not record.", result: nil),
                            .cancelControllers([key]), .writeManifest] + timerStarts),
        SettleRow(name: "the deadline denies the action and starts the held timer at the deadline's time",
                  settling: .event(.permissionDeadline(id: 1), at: 121.2),
                  effects: [.recordActionFailure(key: key, code: .permissionDenied, message: "Permission \"motion\" was not answered within 120 s, so motion does not record.", result: nil),
                            .cancelControllers([key]), .writeManifest,
                            .performStepCommands(stepPath: "r/walk", finishing: false), .voiceStartTimer(atMonotonic: 121.2),
                            .publishTimer(.started(stepPath: "r/walk", duration: 10)), .armClock(generation: 1), .writeManifest]),
    ]

    @Test(arguments: settleRows)
    func permissionsSettleInOneCall(_ row: SettleRow) throws {
        var machine = try Self.machine(policy: PermissionPolicy([.motion: .ask]), task: Self.recorded(walk: #", "commands": ["startTimerAutomatically"]"#))
        _ = try machine.handle(.command(.start, at: 0))
        let forward = try machine.handle(.command(.forward(StepResultInput()), at: 1))
        #expect(Array(forward.suffix(3)) == [.presentStep(at: Self.walk, direction: .forward), .then(.stepPresented(stepPath: "r/walk")), .writeManifest])
        let motion = try #require(forward.lazy.compactMap { effect -> AsyncActionReference? in
            if case .createActions(let references, _) = effect { return references.first }
            return nil
        }.first)
        #expect(motion.description == Self.key)
        guard case .askPermission(let question, _, _)? = try machine.handle(.event(.actionCreated(motion, on: Self.walk), at: 1.2)).first else {
            Issue.record("not asked"); return
        }
        // Presented while the question is open: the timer waits for the answer.
        #expect(try machine.handle(.event(.stepPresented(stepPath: "r/walk"), at: 1.5)).isEmpty)
        #expect(machine.state == .waitingForPermission && machine.shown?.clock?.timer.phase == .notStarted)
        guard case .waitingForPermission(let held, let wait) = machine.phase else { Issue.record("not waiting: \(machine.phase)"); return }
        #expect(wait.ids == [1] && wait.deadline == 121.2)
        let granted = row.effects.first == .requestDevice(key: Self.key)
        #expect(try machine.handle(row.settling) == [.publishPermissionAnswered(question, granted: granted)] + row.effects)
        #expect(machine.state == .running && machine.shown?.clock?.timer.isRunning == true)
        // Back to `started` with the progress the wait held, its timer now started.
        guard case .started(let progress) = machine.phase else { Issue.record("not started: \(machine.phase)"); return }
        #expect(progress.shown?.location == held.shown?.location && progress.resultAnnounced == held.resultAnnounced)
        // A device checked once the timer runs starts its recorder at once.
        if granted { #expect(try machine.handle(.event(.deviceChecked(key: Self.key, failure: nil), at: 7.1)) == [.startActions([Self.key], stepPath: "r/walk")]) }
    }

    @Test("A permission nobody answers is denied at its deadline, not before")
    func permissionDeadline() throws {
        var (machine, motion) = try Self.onRecordedWalk(policy: PermissionPolicy([.motion: .ask]))
        let key = motion.description
        let asked = try machine.handle(.event(.actionCreated(motion, on: Self.walk), at: 0))
        guard case .askPermission(let question, _, _) = asked.first else { Issue.record("not asked: \(asked)"); return }
        #expect(try machine.handle(.event(.permissionDeadline(id: question.id), at: 60)).isEmpty)
        #expect(try machine.handle(.event(.permissionDeadline(id: question.id), at: 120)) == [
            .publishPermissionAnswered(question, granted: false),
            .recordActionFailure(key: key, code: .permissionDenied, message: "Permission \"motion\" was not answered within 120 s, so motion does not record.", result: nil),
            .cancelControllers([key]), .writeManifest, .writeManifest,
        ])
        #expect(machine.openPermissionRequests.isEmpty)
    }

    @Test("Cancelling a discarded run cancels every active action; its open questions are denied")
    func discardCancelsEverything() throws {
        var (machine, motion) = try Self.onRecordedWalk(policy: PermissionPolicy([.motion: .ask]))
        _ = try machine.handle(.event(.actionCreated(motion, on: Self.walk), at: 0))
        #expect(try machine.handle(.command(.cancel(save: false), at: 0)) == [.finishRun(.discarded)])
        #expect(machine.openPermissionRequests.isEmpty)
        #expect(try machine.handle(.event(.cancelRequested, at: 0)) == [.cancelControllers([motion.description])])
        #expect(machine.actions.activeKeys.isEmpty)
    }

    // MARK: Waiting for permissions

    /// The recorded walk whose timer starts by itself, shown at 1 and presented at 1.5, waiting
    /// for the motion question (id 1, asked at 1.2, deadline 121.2).
    static func waitingOnWalk() throws -> SessionMachine {
        var machine = try Self.machine(policy: PermissionPolicy([.motion: .ask]), task: Self.recorded(walk: #", "commands": ["startTimerAutomatically"]"#))
        _ = try machine.handle(.command(.start, at: 0))
        let forward = try machine.handle(.command(.forward(StepResultInput()), at: 1))
        let motion = try #require(forward.lazy.compactMap { effect -> AsyncActionReference? in
            if case .createActions(let references, _) = effect { return references.first }
            return nil
        }.first)
        _ = try machine.handle(.event(.actionCreated(motion, on: Self.walk), at: 1.2))
        _ = try machine.handle(.event(.stepPresented(stepPath: "r/walk"), at: 1.5))
        return machine
    }

    static let motionQuestion = PermissionLedger.Question(id: 1, permission: .motion, waiting: [key], deadline: 121.2)

    /// One input on `waitingOnWalk`: what it returns, the state clients see and the questions
    /// still open after it.
    struct WaitingRow: Sendable, CustomTestStringConvertible {
        var name: String
        var input: Stamped
        var outcome: Outcome
        var state: SessionState
        var open: [UInt64]
        var testDescription: String { name }
    }

    static let waitingRows: [WaitingRow] = [
        WaitingRow(name: "forward waits for the answer", input: .command(.forward(StepResultInput()), at: 2),
                   outcome: .refused(.permissionPending), state: .waitingForPermission, open: [1]),
        WaitingRow(name: "back waits for the answer", input: .command(.back, at: 2),
                   outcome: .refused(.permissionPending), state: .waitingForPermission, open: [1]),
        WaitingRow(name: "skip waits for the answer", input: .command(.skip(to: nil), at: 2),
                   outcome: .refused(.permissionPending), state: .waitingForPermission, open: [1]),
        WaitingRow(name: "the timer's start waits for the answer", input: .command(.startTimer, at: 2),
                   outcome: .refused(.permissionPending), state: .waitingForPermission, open: [1]),
        WaitingRow(name: "a timer not running has nothing to pause", input: .command(.pauseTimer, at: 2),
                   outcome: .refused(.invalidState), state: .waitingForPermission, open: [1]),
        WaitingRow(name: "a timer not paused has nothing to resume", input: .command(.resumeTimer, at: 2),
                   outcome: .refused(.invalidState), state: .waitingForPermission, open: [1]),
        WaitingRow(name: "the presentation again does not start the held timer", input: .event(.stepPresented(stepPath: "r/walk"), at: 2),
                   outcome: .effects([]), state: .waitingForPermission, open: [1]),
        WaitingRow(name: "a deadline not yet passed does nothing", input: .event(.permissionDeadline(id: 1), at: 60),
                   outcome: .effects([]), state: .waitingForPermission, open: [1]),
        WaitingRow(name: "an answer to a question not open is refused", input: .command(.answerPermission(id: 2, granted: true), at: 2),
                   outcome: .refused(.invalidArgument), state: .waitingForPermission, open: [1]),
        WaitingRow(name: "start again is refused", input: .command(.start, at: 2),
                   outcome: .refused(.invalidState), state: .waitingForPermission, open: [1]),
        WaitingRow(name: "abandon is taken: the answer is recorded and the question denied", input: .command(.abandon, at: 2),
                   outcome: .effects([.endStepResult(at: walk), .recordAbandonment(ownerLocation: .root), .finishRun(.abandoned)]),
                   state: .running, open: []),
        WaitingRow(name: "cancel is taken and denies the question", input: .command(.cancel(save: true), at: 2),
                   outcome: .effects([.finishRun(.saved)]), state: .running, open: []),
        WaitingRow(name: "the last answer returns to started and starts the held timer at its time",
                   input: .command(.answerPermission(id: 1, granted: true), at: 7),
                   outcome: .effects([.publishPermissionAnswered(motionQuestion, granted: true), .requestDevice(key: key)] + timerStarts),
                   state: .running, open: []),
    ]

    @Test(arguments: waitingRows)
    func whileWaiting(_ row: WaitingRow) throws {
        var machine = try Self.waitingOnWalk()
        #expect(machine.state == .waitingForPermission && machine.openPermissionRequests == [1])
        try Self.expect(row.outcome, of: row.input, on: &machine)
        #expect(machine.state == row.state)
        #expect(machine.openPermissionRequests == row.open)
    }

    @Test("While waiting, the step offers what it takes once answered; the moves and the timer's start are held (permissionPending) until then")
    func allowedActionsWhileWaiting() throws {
        var machine = try Self.waitingOnWalk()
        let step = try #require(machine.navigator.currentStep)
        // `stepShown` is published once per step, while the question may be open: it lists what
        // the step offers, and the wait is announced by `permissionRequest` and the state.
        let offered = machine.allowedActions(on: step)
        #expect(offered == ["forward", "cancel", "abandon", "back", "skip", "timer.start", "timer.pause", "timer.resume"])
        for command in [SessionMachine.Command.forward(StepResultInput()), .back, .skip(to: nil), .startTimer] {
            var copy = machine
            do {
                let effects = try copy.handle(.command(command, at: 2))
                Issue.record("\(command) taken while waiting: \(effects)")
            } catch {
                #expect(error.code == .permissionPending, "\(command): \(error.message)")
            }
        }
        _ = try machine.handle(.command(.answerPermission(id: 1, granted: true), at: 7))
        #expect(machine.allowedActions(on: step) == offered)
        // Once answered, what the step offers is taken.
        for command in [SessionMachine.Command.forward(StepResultInput()), .back, .skip(to: nil)] {
            var copy = machine
            _ = try copy.handle(.command(command, at: 8))
        }
    }

    @Test("Two actions on one step: a second permission joins the question open for it, and the run returns to started only with the last answer")
    func twoQuestions() throws {
        let text = #"""
        {"identifier": "r", "type": "assessment",
         "asyncActions": [{"identifier": "motion", "type": "motion", "startStepIdentifier": "walk", "stopStepIdentifier": "walk"},
                          {"identifier": "distance", "type": "distance", "startStepIdentifier": "walk", "stopStepIdentifier": "walk"}],
         "steps": [
            {"identifier": "intro", "type": "instruction"},
            {"identifier": "walk", "type": "active", "duration": 10, "commands": ["startTimerAutomatically"]},
            {"identifier": "done", "type": "completion"}
        ]}
        """#
        var machine = try Self.machine(policy: PermissionPolicy(default: .ask), task: text)
        _ = try machine.handle(.command(.start, at: 0))
        let forward = try machine.handle(.command(.forward(StepResultInput()), at: 1))
        let references = forward.flatMap { effect -> [AsyncActionReference] in
            if case .createActions(let references, _) = effect { return references }
            return []
        }
        let motion = try #require(references.first { $0.identifier == "motion" })
        let distance = try #require(references.first { $0.identifier == "distance" })
        let askedMotion = try machine.handle(.event(.actionCreated(motion, on: Self.walk), at: 1.1))
        #expect(askedMotion.count == 1 && machine.openPermissionRequests == [1])
        // Distance asks for its location; its motion joins question 1, asked once.
        let askedDistance = try machine.handle(.event(.actionCreated(distance, on: Self.walk), at: 1.2))
        #expect(askedDistance.count == 1 && machine.openPermissionRequests == [1, 2], "\(askedDistance)")
        guard case .askPermission(let location, "distance", _)? = askedDistance.first else { Issue.record("not asked: \(askedDistance)"); return }
        #expect(location.permission == .locationWhenInUse)
        #expect(try machine.handle(.event(.stepPresented(stepPath: "r/walk"), at: 1.5)).isEmpty)
        // Motion granted: motion checks its device; distance still waits for its location.
        let first = try machine.handle(.command(.answerPermission(id: 1, granted: true), at: 5))
        #expect(first == [.publishPermissionAnswered(PermissionLedger.Question(id: 1, permission: .motion, waiting: [motion.description, distance.description], deadline: 121.1), granted: true),
                          .requestDevice(key: motion.description)])
        #expect(machine.state == .waitingForPermission && machine.openPermissionRequests == [2] && machine.actions[distance.description] == .asking)
        // The last answer settles the wait: distance checks its device and the held timer starts.
        let last = try machine.handle(.command(.answerPermission(id: 2, granted: true), at: 6))
        #expect(last.prefix(3) == [.publishPermissionAnswered(location, granted: true), .requestDevice(key: distance.description),
                                   .performStepCommands(stepPath: "r/walk", finishing: false)])
        #expect(last.contains(.voiceStartTimer(atMonotonic: 6)))
        guard case .started = machine.phase else { Issue.record("not started: \(machine.phase)"); return }
        #expect(machine.openPermissionRequests.isEmpty && machine.shown?.clock?.timer.isRunning == true)
    }
}
