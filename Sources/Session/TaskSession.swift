public import AsyncActions
import BlockingCalls
import Clocks
public import Foundation
public import Logging
public import TaskModel
public import TaskNavigation
public import Quality
import Synchronization
import Voice

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
    public internal(set) var state: SessionState = .loaded {
        didSet { publishedState.withLock { $0 = state } }
    }
    /// `state` as last set, for readers that must not wait for the actor to be free (the daemon
    /// answers `run.status` and `daemon.info` from it, docs/daemon.md).
    public nonisolated var currentState: SessionState { publishedState.withLock { $0 } }
    private let publishedState = Mutex(SessionState.loaded)

    let settings: SessionSettings
    let store: RunStore
    let run: RunDirectory
    var logger: Logger
    var navigator: TaskNavigator
    var ledger: PermissionLedger
    var results: ResultHistory
    /// Keyed by `AsyncActionReference.description` (`owner:identifier`).
    var controllers: [String: ControllerEntry] = [:]
    var controllerOrder: [String] = []
    var timer: StepTimer?
    /// Bumped whenever the timer of the step shown changes, so an old clock job ends.
    var timerGeneration: UInt64 = 0
    /// Whether the step shown has had its `end` prompt spoken.
    var endSpoken = false
    /// Whether the step shown got its result from the front end (else the session's base
    /// result gets its end date when the step is left).
    var resultSentByFrontEnd = false
    var startDate = Date()
    /// The quality checks of the finished run (`qc.json`).
    var quality: QualityReport?
    var prompts: [RunManifest.Prompt] = []
    /// The step paths shown, in order, backward moves included (the manifest's history).
    var shownPaths: [String] = []
    /// Time-driven work for `run()`.
    let jobs: AsyncStream<Job>.Continuation
    private let jobStream: AsyncStream<Job>
    /// Where a resumed run was saved: `start()` shows that step again.
    var resumePoint: StepLocation?
    /// File names already used in the run directory (a resumed run records into new files).
    var takenNames: Set<String> = []
    /// Commands waiting for the one in progress.
    private var commandBusy = false
    private var commandWaiters: [CheckedContinuation<Void, Never>] = []

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
        taskRunUUID = run.taskRunUUID
        events = SessionEventHub(capacity: settings.eventCapacity)
        navigator = TaskNavigator(task: task, showsFullInstructions: settings.showsFullInstructions, cohorts: settings.cohorts)
        ledger = PermissionLedger(policy: settings.permissionPolicy, timeout: settings.permissionTimeout)
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
            if let voice = settings.voice {
                group.addTask { [weak self] in
                    for await event in voice.events { await self?.voiceEvent(event) }
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
        try await exclusive { () throws(SessionError) in
            guard state == .loaded else {
                throw SessionError(.invalidState, "The run \(taskRunUUID) was already started (it is \(state)); load the task again to run it again.")
            }
            if let resumePoint {
                state = .running
                logger.info("Task resumed", metadata: ["stepPath": "\(task.stepPath(of: resumePoint))"])
                await perform(resumeTransition(at: resumePoint))
                return
            }
            startDate = Date()
            results = Self.emptyResults(of: task, taskRunUUID: taskRunUUID, startDate: startDate)
            state = .running
            logger.info("Task started")
            let transition: NavigationTransition
            do throws(NavigationError) { transition = try navigator.start() } catch { throw SessionError(.invalidState, error.description) }
            await perform(transition)
        }
    }

    /// Goes forward from the step shown, with the step's result from the front end (answers,
    /// `skipToIdentifier`).
    public func forward(_ input: StepResultInput = StepResultInput()) async throws(SessionError) {
        try await exclusive { () throws(SessionError) in
            try checkMovable("go forward")
            guard let step = navigator.currentStep else { throw notRunning("go forward") }
            guard let location = navigator.currentLocation else { throw notRunning("go forward") }
            let result = try stepResult(input, for: step, at: location)
            let transition: NavigationTransition
            do throws(NavigationError) { transition = try navigator.goForward(skipToIdentifier: input.skipToIdentifier) } catch { throw SessionError(.invalidArgument, error.description) }
            try? results.setResult(result, forStep: task.identifiers(along: location))
            resultSentByFrontEnd = true
            await perform(transition, exitTarget: (input.skipToIdentifier ?? step.nextStepIdentifier) == "exit")
        }
    }

    /// Goes back to the step shown before; refused at the first step, from a completion step,
    /// and where `goBackward` is in the step's or the task's `shouldHideActions`.
    public func back() async throws(SessionError) {
        try await exclusive { () throws(SessionError) in
            try checkMovable("go back")
            guard let step = navigator.currentStep else { throw notRunning("go back") }
            if step.kind == .completion {
                throw SessionError(.notAllowed, "The completion step \"\(step.identifier)\" cannot go back: the results are written. Go forward to finish the task.")
            }
            if hides("goBackward", on: step) {
                throw SessionError(.notAllowed, "The step \"\(step.identifier)\" hides the back action (shouldHideActions); go forward or cancel instead.")
            }
            let transition: NavigationTransition
            do throws(NavigationError) { transition = try navigator.goBack() } catch { throw SessionError(.notAllowed, error.description) }
            await perform(transition)
        }
    }

    /// Skips the step shown: to the step named by its skip action (or `identifier`), else on;
    /// refused where `skip` is in `shouldHideActions` and on a completion step.
    public func skip(to identifier: String? = nil) async throws(SessionError) {
        try await exclusive { () throws(SessionError) in
            try checkMovable("skip")
            guard let step = navigator.currentStep else { throw notRunning("skip") }
            if hides("skip", on: step) {
                throw SessionError(.notAllowed, "The step \"\(step.identifier)\" hides the skip action (shouldHideActions); go forward instead.")
            }
            if step.kind == .completion {
                throw SessionError(.notAllowed, "The completion step \"\(step.identifier)\" cannot be skipped; go forward to finish the task.")
            }
            let target = identifier ?? step.actionSkipIdentifiers["skip"]
            let transition: NavigationTransition
            do throws(NavigationError) { transition = try navigator.skip(to: target) } catch { throw SessionError(.invalidArgument, error.description) }
            await perform(transition, exitTarget: (target ?? step.nextStepIdentifier) == "exit")
        }
    }

    /// Abandons the task (SageResearch's `abandonAssessment`): the run finishes as abandoned
    /// with an answer result `abandonAssessment: true`.
    public func abandon() async throws(SessionError) {
        try await exclusive { () throws(SessionError) in
            guard !state.isOver, state != .loaded else { throw notRunning("abandon") }
            let now = Date()
            results.appendAsyncResult(
                AnswerResult(identifier: "abandonAssessment", startDate: now, endDate: now, answerType: .object(["type": .string("boolean")]), value: .bool(true)),
                ownerPath: task.identifiers(along: navigator.currentLocation?.parent ?? .root))
            await finish(.abandoned)
        }
    }

    /// Starts the step timer of the step shown (an active or countdown step).
    public func startTimer() async throws(SessionError) {
        try await exclusive { () throws(SessionError) in
            try checkMovable("start the timer")
            guard let timer, case .notStarted = timer.phase else {
                throw SessionError(.invalidState, self.timer == nil
                    ? "The step shown has no timer; only active and countdown steps do."
                    : "The step timer already started; pause or resume it instead.")
            }
            await startStepTimer()
        }
    }

    /// Pauses the step timer; prompts wait and, with `speakWarningOnPause`, the warning is spoken.
    public func pauseTimer() async throws(SessionError) {
        try await exclusive { () throws(SessionError) in
            guard state == .running, timer?.isRunning == true else {
                throw SessionError(.invalidState, "There is no running step timer to pause (the session is \(state)).")
            }
            await pauseStepTimer()
        }
    }

    /// Resumes a paused step timer.
    public func resumeTimer() async throws(SessionError) {
        try await exclusive { () throws(SessionError) in
            guard state == .paused, timer?.isPaused == true else {
                throw SessionError(.invalidState, "The step timer is not paused (the session is \(state)); there is nothing to resume.")
            }
            await resumeStepTimer()
        }
    }

    /// Answers the permission request `id`.
    public func answerPermission(_ id: UInt64, granted: Bool) async throws(SessionError) {
        try await exclusive { () throws(SessionError) in
            guard ledger.open[id] != nil else {
                throw SessionError(.invalidArgument, "There is no open permission request \(id); answer one of \(ledger.open.keys.sorted().map(String.init).joined(separator: ", ").ifEmpty("none")).")
            }
            await permissionAnswered(id, granted: granted, byTimeout: false)
        }
    }

    /// Cancels the run: with `save`, controllers stop, finished files are kept and the run can
    /// be resumed; without, every controller is cancelled and the run directory is deleted.
    public func cancel(save: Bool) async throws(SessionError) {
        try await exclusive { () throws(SessionError) in
            guard !state.isOver else { throw notRunning("cancel") }
            await finish(save ? .saved : .discarded)
        }
    }

    /// Ends the run as interrupted (the daemon is stopping): controllers stop and keep their
    /// files, results and the archive are written.
    public func interrupt() async {
        await exclusive {
            guard !state.isOver else { return }
            await finish(.interrupted)
        }
    }

    // MARK: Queries

    /// The path of the step shown, if any.
    public var currentStepPath: String? { navigator.currentStepPath }

    /// The statuses of the run's async actions, in the order they were created.
    public var actionStatuses: [(owner: String, identifier: String, status: AsyncActionStatus)] {
        get async {
            var statuses: [(String, String, AsyncActionStatus)] = []
            for key in controllerOrder {
                guard let entry = controllers[key] else { continue }
                statuses.append((entry.reference.owner, entry.reference.identifier, await entry.controller.status))
            }
            return statuses
        }
    }

    /// The permission questions waiting for an answer.
    public var openPermissionRequests: [UInt64] { ledger.open.keys.sorted() }

    /// The task result so far.
    public var taskResult: TaskResult { results.taskResult() }

    /// The quality checks of the run, once it finished (not saved or discarded); nil before,
    /// or when they could not be made.
    public var qualityReport: QualityReport? { quality }

    /// The run directory.
    public nonisolated var runDirectory: URL { run.url }

    // MARK: Helpers

    /// Runs `body` when no other command is in progress, so commands never interleave at their
    /// awaits; waiting commands go in arrival order.
    func exclusive<T>(_ body: () async throws(SessionError) -> T) async throws(SessionError) -> T {
        if commandBusy {
            await withCheckedContinuation { commandWaiters.append($0) }
        }
        commandBusy = true
        defer {
            if commandWaiters.isEmpty {
                commandBusy = false
            } else {
                commandWaiters.removeFirst().resume()
            }
        }
        return try await body()
    }

    func exclusive(_ body: () async -> Void) async {
        try? await exclusive { () throws(SessionError) in await body() }
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

    func checkMovable(_ what: String) throws(SessionError) {
        switch state {
        case .running, .paused: return
        case .waitingForPermission:
            throw SessionError(.permissionPending, "Answer the permission request \(ledger.open.keys.sorted().map(String.init).joined(separator: ", ")) before you \(what).")
        case .loaded, .finished, .saved:
            throw notRunning(what)
        }
    }

    func notRunning(_ what: String) -> SessionError {
        switch state {
        case .loaded: SessionError(.invalidState, "The run \(taskRunUUID) has not started; start it before you \(what).")
        default: SessionError(.invalidState, "The run \(taskRunUUID) is \(state); it cannot \(what). Load the task again, or resume a saved run.")
        }
    }

    func hides(_ action: String, on step: Step) -> Bool {
        func list(_ properties: [String: JSONValue]) -> [String] {
            (properties["shouldHideActions"]?.arrayValue ?? []).compactMap(\.stringValue)
        }
        return list(step.properties).contains(action) || list(task.properties).contains(action)
    }

}

extension String {
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
