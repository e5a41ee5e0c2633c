public import AsyncActions
import BlockingCalls
import Clocks
public import Foundation
import Logging
public import TaskModel
import TaskNavigation
import Synchronization

/// Runs one SageResearch task end to end, as RSDTaskViewModel and RSDTaskViewController do on
/// iOS, with no UI and no wire format (docs/session.md): navigation, step results, step timers,
/// async-action controllers, spoken prompts, the run directory and its archive.
///
/// Commands are actor methods and run one at a time, in the order they arrive; each either does
/// what it says or throws a `SessionError` that says why not. Time-driven work (timer ticks and
/// ends, permission deadlines, controller and voice events) runs as child tasks of `run()`,
/// which the host runs for the session's life (a `ServiceGroup` service in the daemon).
public actor TaskSession {
    public nonisolated let taskRunUUID: UUID
    public nonisolated let task: TaskDefinition
    /// Every event of the session, for any number of subscribers.
    public nonisolated let events: SessionEventHub
    /// Where the session is.
    public var state: SessionState { machine.state }
    /// `state` as last set, for readers that must not wait for the actor to be free (the daemon
    /// answers `run.status` and `daemon.info` from it, docs/daemon.md).
    public nonisolated var currentState: SessionState { publishedState.withLock { $0 } }
    private let publishedState = Mutex(SessionState.loaded)

    /// The session's state and its transitions (docs/session.md, "The machine"): the actor
    /// feeds it inputs and carries out the effects it returns.
    var machine: SessionMachine {
        didSet {
            if machine.state != oldValue.state { publishedState.withLock { $0 = machine.state } }
            if machine.navigator.cohorts != oldValue.navigator.cohorts { publishedCohorts.withLock { $0 = machine.navigator.cohorts } }
        }
    }
    /// The participant's cohorts now (survey rules change them), for readers that must not
    /// wait for the actor, as `currentState`.
    public nonisolated var currentCohorts: Set<String> { publishedCohorts.withLock { $0 } }
    private let publishedCohorts = Mutex(Set<String>())
    let settings: SessionSettings
    /// The voice's notices, subscribed as the session is made: a daemon starts a run before
    /// `run()` gets its turn, and a voice keeps no events for subscribers that come later.
    private let voiceNotices: AsyncStream<VoiceNotice>?
    let store: RunStore
    let run: RunDirectory
    var logger: Logger
    var results: ResultHistory
    /// The controllers of the run's actions, keyed by `AsyncActionReference.description`
    /// (`owner:identifier`); their phases and order are the machine's.
    var controllers: [String: ControllerEntry] = [:]
    /// What a stop handed over, until the machine says to record it.
    var stopResults: [String: [any ResultData]] = [:]
    var startDate = Date()
    /// The quality checks of the finished run (`qc.json`).
    var quality: (any RunQualityReport)?
    var prompts: [RunManifest.Prompt] = []
    /// The voice's played-out tokens taken so far (`waitForVoice()` waits on it); ended when the
    /// voice's notices end.
    var voiceHeard = SequenceGate()
    /// While a step's `start` prompts are handed to the voice ahead of its `stepShown`, the
    /// notices about that step's prompts wait here, so that no front end hears of a step's
    /// prompt before the step (`presentStep`).
    var heldNotices: HeldNotices?
    /// The step paths shown, in order, backward moves included (the manifest's history).
    var shownPaths: [String] = []
    /// Time-driven work for `run()`.
    let jobs: AsyncStream<Job>.Continuation
    private let jobStream: AsyncStream<Job>
    /// File names already used in the run directory (a resumed run records into new files).
    var takenNames: Set<String> = []
    /// Whose turn it is to be carried out, and the inputs waiting for theirs (`oneAtATime`).
    private var inputTurns = Turns()

    typealias Job = @Sendable () async -> Void

    /// Creates a run directory in `store` for `task` and a session that runs it. The run keeps
    /// the task as loaded (transforms resolved) as `task.json`, so a saved run resumes with
    /// exactly the steps it started with.
    public static func create(task: TaskDefinition, store: RunStore, settings: SessionSettings,
                              taskRunUUID: UUID = UUID()) async throws(SessionError) -> TaskSession {
        let taskSource: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            taskSource = try encoder.encode(task)
        } catch {
            throw SessionError(.invalidArgument, "The task \(task.identifier) cannot be kept with its run: \(error)")
        }
        let start = Date()
        let empty = TaskResult(identifier: task.identifier, taskRunUUID: taskRunUUID, startDate: start)
        let run: RunDirectory
        do {
            run = try await BlockingCall.run("run-create") {
                try store.createRun(taskRunUUID: taskRunUUID, taskIdentifier: task.identifier, taskSource: taskSource, results: empty, startDate: start)
            }
        } catch {
            throw SessionError(.storageFailed, "\(error)")
        }
        return TaskSession(task: task, run: run, store: store, settings: settings)
    }

    /// Creates a session for `task` writing into `run` (a run directory `store` created).
    public init(task: TaskDefinition, run: RunDirectory, store: RunStore, settings: SessionSettings) {
        self.task = task
        self.store = store
        self.run = run
        self.settings = settings
        voiceNotices = settings.voice?.notices()
        taskRunUUID = run.taskRunUUID
        events = SessionEventHub(capacity: settings.eventCapacity)
        machine = SessionMachine(
            task: task, taskRunUUID: run.taskRunUUID,
            navigator: TaskNavigator(task: task, showsFullInstructions: settings.showsFullInstructions, cohorts: settings.cohorts),
            ledger: PermissionLedger(policy: settings.permissionPolicy, timeout: settings.permissionTimeout),
            handCoin: settings.handCoin)
        publishedCohorts.withLock { $0 = settings.cohorts }
        results = Self.emptyResults(of: task, taskRunUUID: run.taskRunUUID, startDate: Date())
        var logger = settings.logger
        logger[metadataKey: "taskRunUUID"] = "\(run.taskRunUUID)"
        logger[metadataKey: "taskIdentifier"] = "\(task.identifier)"
        self.logger = logger
        (jobStream, jobs) = AsyncStream.makeStream(of: Job.self)
    }

    // MARK: Running

    /// Runs the session's time-driven work until the session is over and its work is done.
    /// Cancelling it interrupts the run (controllers stopped, files kept, run marked interrupted).
    public nonisolated func run() async {
        await withDiscardingTaskGroup { group in
            if let notices = voiceNotices {
                group.addTask { [weak self] in
                    for await notice in notices { await self?.voiceNotice(notice) }
                    await self?.endVoiceNotices()
                }
            }
            await withTaskCancellationHandler {
                for await job in jobStream {
                    group.addTask { await job() }
                }
            } onCancel: {
                jobs.finish()
            }
            // The session is over (or cancelled): what is left (a permission deadline still
            // sleeping, event forwarding) has nothing more to do.
            group.cancelAll()
        }
        if Task.isCancelled { await interrupt() }
    }

    /// Adds time-driven work to `run()`.
    func schedule(_ job: @escaping Job) {
        jobs.yield(job)
    }

    // MARK: Commands

    /// Starts the task: the first step is shown.
    public func start() async throws(SessionError) {
        try await submit(.command(.start))
    }

    /// Goes forward from the step shown, with the step's result from the front end (answers,
    /// `skipToIdentifier`).
    public func forward(_ input: StepResultInput = StepResultInput()) async throws(SessionError) {
        try await submit(.command(.forward(input)))
    }

    /// Goes back to the step shown before; refused at the first step, from a completion step,
    /// and where `goBackward` is in the step's or the task's `shouldHideActions`.
    public func back() async throws(SessionError) {
        try await submit(.command(.back))
    }

    /// Skips the step shown: to the step named by its skip action (or `identifier`), else on;
    /// refused where `skip` is in `shouldHideActions` and on a completion step.
    public func skip(to identifier: String? = nil) async throws(SessionError) {
        try await submit(.command(.skip(to: identifier)))
    }

    /// Abandons the task (SageResearch's `abandonAssessment`): the run finishes as abandoned
    /// with an answer result `abandonAssessment: true`.
    public func abandon() async throws(SessionError) {
        try await submit(.command(.abandon))
    }

    /// Starts the step timer of the step shown (an active or countdown step).
    public func startTimer() async throws(SessionError) {
        try await submit(.command(.startTimer))
    }

    /// Pauses the step timer; prompts wait and, with `speakWarningOnPause`, the warning is spoken.
    public func pauseTimer() async throws(SessionError) {
        try await submit(.command(.pauseTimer))
    }

    /// Resumes a paused step timer.
    public func resumeTimer() async throws(SessionError) {
        try await submit(.command(.resumeTimer))
    }

    /// Answers the permission request `id`.
    public func answerPermission(_ id: UInt64, granted: Bool) async throws(SessionError) {
        try await submit(.command(.answerPermission(id: id, granted: granted)))
    }

    /// Cancels the run: with `save`, controllers stop, finished files are kept and the run can
    /// be resumed; without, every controller is cancelled and the run directory is deleted.
    public func cancel(save: Bool) async throws(SessionError) {
        try await submit(.command(.cancel(save: save)))
    }

    /// Ends the run as interrupted (the daemon is stopping): controllers stop and keep their
    /// files, results and the archive are written.
    public func interrupt() async {
        try? await submit(.command(.interrupt))
    }

    // MARK: Queries

    /// The path of the step shown, if any.
    public var currentStepPath: String? { machine.navigator.currentStepPath }

    /// The statuses of the run's async actions, in the order they were created.
    public var actionStatuses: [(owner: String, identifier: String, status: AsyncActionStatus)] {
        get async {
            var statuses: [(String, String, AsyncActionStatus)] = []
            for key in machine.actions.order {
                guard let entry = controllers[key] else { continue }
                statuses.append((entry.reference.owner, entry.reference.identifier, await entry.controller.status))
            }
            return statuses
        }
    }

    /// The permission questions waiting for an answer.
    public var openPermissionRequests: [UInt64] { machine.openPermissionRequests }

    /// The task result so far.
    public var taskResult: TaskResult { results.taskResult() }

    /// The task result so far and its open sections' results, outermost first
    /// (`ResultHistory.openSectionResults`), read in one turn so that they agree.
    public var liveResults: (task: TaskResult, openSections: [AnyResult]) { (results.taskResult(), results.openSectionResults) }

    /// The quality checks of the run, once it finished (not saved or discarded); nil before,
    /// or when they could not be made.
    public var qualityReport: (any RunQualityReport)? { quality }

    /// The run directory.
    public nonisolated var runDirectory: URL { run.url }

    // MARK: Carrying out the machine

    /// Stamps `input` with the time it arrives, feeds it to the machine once no other input is
    /// being carried out, and carries out the effects it returns; a refused command throws its
    /// `SessionError`. The stamp is taken before the wait for the turn, so an input's time is
    /// when it happened, not when it was handled (docs/session.md, "The machine").
    func submit(_ input: SessionMachine.Input) async throws(SessionError) {
        let stamped = input.at(RecordingClock.monotonic())
        try await oneAtATime { () throws(SessionError) in
            await carryOut(try machine.handle(stamped))
        }
    }

    /// Feeds an event that an effect being carried out produced (its input holds the turn),
    /// stamped now, as the await that produced it ended.
    func feed(_ event: SessionMachine.Event) async {
        await carryOut(machine.handle(event, at: RecordingClock.monotonic()))
    }

    /// Carries out `effects` in order. Re-checked before each: once the run has ended (an
    /// effect's await let a failure end it), what is left of the batch is moot.
    func carryOut(_ effects: [SessionMachine.Effect]) async {
        for effect in effects {
            guard !machine.state.isOver else { return }
            await carryOut(effect)
        }
    }

    /// Runs `body` when no other input is being carried out, so that inputs never interleave
    /// at their awaits (the actor alone would let them); waiting inputs go in arrival order.
    func oneAtATime(_ body: () async throws(SessionError) -> Void) async throws(SessionError) {
        if inputTurns.isTaken {
            await withCheckedContinuation { inputTurns.wait($0) }
        } else {
            inputTurns.take()
        }
        defer { inputTurns.pass() }
        try await body()
    }

    /// The results of a run not started yet, with the task's schema keys (`versionString`,
    /// `schemaIdentifier` or `schemaInfo.identifier`), as RSDTaskViewModel copies them.
    static func emptyResults(of task: TaskDefinition, taskRunUUID: UUID, startDate: Date) -> ResultHistory {
        let properties = task.properties
        let version: String? = switch properties["versionString"] {
        case .string(let text): text
        case .number(let number): number == number.rounded() ? String(Int(number)) : String(number)
        default: nil
        }
        let schema = properties["schemaIdentifier"]?.stringValue ?? properties["schemaInfo"]?.objectValue?["identifier"]?.stringValue
        return ResultHistory(taskIdentifier: task.identifier, taskRunUUID: taskRunUUID, startDate: startDate,
                             assessmentIdentifier: task.identifier, schemaIdentifier: schema, versionString: version)
    }

}

extension String {
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
