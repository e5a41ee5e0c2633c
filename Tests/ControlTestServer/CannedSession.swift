import TaskNavigation
import TaskModel
import ControlProtocol
import ControlServer
import Foundation
import ServiceLifecycle

/// A stand-in for activetaskd's session, for protocol tests only: it walks a task's top-level
/// steps, runs step timers on a fast clock, asks for the microphone permission, and keeps runs
/// in memory, so that a client can be driven through a whole task without sensors. The real
/// session (module Session) replaces it in the daemon.
actor CannedSession: ControlHandler, Service {
    private struct Run {
        var uuid: String
        var task: JSONValue
        var steps: [JSONValue]
        var index = 0
        var history: [String] = []
        var state: RunState = .running
        var timer: TimerStatus?
        var permission: PermissionRequestEvent?
        var runDirectory: String
        var archive: String?
    }

    private let dataDirectory: String
    private let tick: Double
    private var loaded: (task: JSONValue, steps: [JSONValue])?
    private var current: Run?
    private var kept: [String: Run] = [:]
    private var sequence: UInt64 = 0
    private var nextPermission: UInt64 = 1
    private let started = Date()
    private nonisolated let stream: AsyncStream<ControlEvent>
    private nonisolated let continuation: AsyncStream<ControlEvent>.Continuation

    init(dataDirectory: String, tick: Double) {
        self.dataDirectory = dataDirectory
        self.tick = tick
        (stream, continuation) = AsyncStream.makeStream(of: ControlEvent.self, bufferingPolicy: .bufferingNewest(4096))
    }

    nonisolated func events() -> AsyncStream<ControlEvent> { stream }

    /// Advances the step timer: one simulated second per `tick` seconds of wall time.
    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            try? await Task.sleep(for: .seconds(tick))
            advanceTimer()
        }
    }

    /// One handler per method a daemon answers, each a method of this actor below.
    nonisolated func registerHandlers(on routes: inout ControlRoutes) {
        routes.handle(ControlMethods.daemonInfo) { _, _ in await self.info() }
        routes.handle(ControlMethods.devicesList) { _, _ in Self.devices }
        routes.handle(ControlMethods.taskLoad) { params, _ in try await self.load(params) }
        routes.handle(ControlMethods.runStart) { _, _ in try await self.start() }
        routes.handle(ControlMethods.runForward) { params, _ in try await self.forward(params) }
        routes.handle(ControlMethods.runBack) { params, _ in try await self.back(params) }
        routes.handle(ControlMethods.runSkip) { params, _ in try await self.skip(params) }
        routes.handle(ControlMethods.runAbandon) { params, _ in try await self.abandon(params) }
        routes.handle(ControlMethods.timerStart) { params, _ in try await self.runTimer(ControlMethods.timerStart.name, params) }
        routes.handle(ControlMethods.timerResume) { params, _ in try await self.runTimer(ControlMethods.timerResume.name, params) }
        routes.handle(ControlMethods.timerPause) { params, _ in try await self.pauseTimer(params) }
        routes.handle(ControlMethods.permissionAnswer) { params, _ in try await self.answer(params) }
        routes.handle(ControlMethods.runCancel) { params, _ in try await self.cancel(params) }
        routes.handle(ControlMethods.runResume) { params, _ in try await self.resume(params) }
        routes.handle(ControlMethods.runStatus) { _, _ in await self.status }
        routes.handle(ControlMethods.runsList) { _, _ in await self.runs() }
        routes.handle(ControlMethods.runResult) { params, _ in try await self.result(params) }
        routes.handle(ControlMethods.runArchive) { params, _ in try await self.archive(params) }
        // A canned session records nothing to check.
        routes.handle(ControlMethods.runQuality) { params, _ in throw Self.nothingRecorded(params) }
        routes.handle(ControlMethods.runReport) { params, _ in throw Self.nothingRecorded(params) }
        // A method added to the protocol after this stand-in was written: refused in a sentence,
        // so that a new method needs its declaration and the daemon's handler only.
        for method in ControlMethods.all where !routes.registeredMethods.contains(method.name) {
            routes.refuse(method) { _ in
                ControlError(.internalError, "control-test-server does not carry out \(method.name); activetaskd does.")
            }
        }
    }

    // MARK: Methods

    private func info() -> DaemonInfo {
        DaemonInfo(
            name: "control-test-server", version: "0.0.0", pid: Int(ProcessInfo.processInfo.processIdentifier),
            uptime: Date().timeIntervalSince(started), dataDirectory: dataDirectory, iioURI: "sim:",
            captureDevice: "null", playbackDevice: "null", session: sessionState)
    }

    private static let devices = DeviceList(
        motion: [.init(name: "sim-imu", identifier: "iio:device0", sensors: ["accelerometer", "gyro"], samplingFrequencies: [100, 200])],
        audio: [.init(name: "null", description: "Discard all samples", capture: true, playback: true)])

    private func load(_ params: TaskLoadParams) throws(ControlError) -> LoadedTask {
        if let current, current.state == .running { throw .runAlreadyRunning(taskRunUUID: current.uuid, taskIdentifier: identifier(of: current.task)) }
        let task = try readTask(params)
        loaded = (task, steps(of: task))
        current = nil
        return LoadedTask(
            taskIdentifier: identifier(of: task), stepCount: loaded!.steps.count,
            asyncActions: asyncActions(of: task).compactMap { $0["identifier"]?.stringValue })
    }

    private func start() throws(ControlError) -> SessionStatus {
        if let current, current.state == .running { throw .runAlreadyRunning(taskRunUUID: current.uuid, taskIdentifier: identifier(of: current.task)) }
        guard let loaded else { throw .outOfOrder("run.start", state: sessionState.rawValue, allowed: ["task.load", "run.resume"]) }
        let uuid = UUID().uuidString
        current = Run(uuid: uuid, task: loaded.task, steps: loaded.steps, runDirectory: "\(dataDirectory)/runs/\(uuid)")
        self.loaded = nil
        if asyncActions(of: current!.task).contains(where: { $0["type"]?.stringValue == "microphone" }) {
            let request = PermissionRequestEvent(requestID: nextPermission, permission: "microphone", title: "Microphone",
                                                 reason: "The task records your voice.", actions: ["microphone"], deadlineUptime: 120)
            nextPermission += 1
            current!.permission = request
            emit(.permissionRequest(request))
        }
        show()
        return status
    }

    /// Refuses a command meant for another run than the current one, as the daemon does.
    private func requireMeant(_ params: some RunNamingParams, _ method: String) throws(ControlError) {
        guard let meant = params.taskRunUUID, meant != current?.uuid else { return }
        throw .notTheCurrentRun(method, meant: meant, current: current?.uuid)
    }

    private func forward(_ params: ForwardParams) throws(ControlError) -> SessionStatus {
        try requireMeant(params, "run.forward")
        try requireRunning("run.forward")
        if let leaving = params.stepPath, leaving != path(current!) {
            throw ControlError(.commandOutOfOrder, "\(leaving) is no longer showing (\(path(current!)) is); forward from the step on screen.",
                               data: ControlErrorData(state: sessionState.rawValue, method: "run.forward"))
        }
        leave()
        return status
    }

    private func back(_ params: RunCommandParams) throws(ControlError) -> SessionStatus {
        try requireMeant(params, "run.back")
        try requireRunning("run.back")
        guard current!.index > 0 else { throw ControlError(.actionNotAllowed, "The first step has no step before it; go forward or cancel.") }
        current!.index -= 1
        show(direction: "backward")
        return status
    }

    private func skip(_ params: RunCommandParams) throws(ControlError) -> SessionStatus {
        try requireMeant(params, "run.skip")
        try requireRunning("run.skip")
        leave()
        return status
    }

    private func abandon(_ params: RunCommandParams) throws(ControlError) -> SessionStatus {
        try requireMeant(params, "run.abandon")
        try requireRunning("run.abandon")
        finish(.abandoned)
        return status
    }

    /// `timer.start` and `timer.resume`.
    private func runTimer(_ method: String, _ params: RunCommandParams) throws(ControlError) -> SessionStatus {
        try requireMeant(params, method)
        try requireRunning(method)
        guard let timer = current!.timer else { throw ControlError(.actionNotAllowed, "This step has no timer.") }
        if !timer.running {
            current!.timer!.running = true
            emit(method == ControlMethods.timerStart.name ? .timerStarted(.init(stepPath: timer.stepPath, duration: timer.duration))
                                                          : .timerResumed(.init(stepPath: timer.stepPath, elapsed: timer.elapsed)))
        }
        return status
    }

    private func pauseTimer(_ params: RunCommandParams) throws(ControlError) -> SessionStatus {
        try requireMeant(params, "timer.pause")
        try requireRunning("timer.pause")
        guard let timer = current!.timer, timer.running else { throw .outOfOrder("timer.pause", state: "running", allowed: ["timer.start", "timer.resume"]) }
        current!.timer!.running = false
        emit(.timerPaused(.init(stepPath: timer.stepPath, elapsed: timer.elapsed)))
        return status
    }

    private func answer(_ answer: PermissionAnswerParams) throws(ControlError) -> SessionStatus {
        try requireMeant(answer, "permission.answer")
        guard let request = current?.permission else { throw .notFound("Permission request \(answer.requestID)") }
        guard request.requestID == answer.requestID else { throw .notFound("Permission request \(answer.requestID)") }
        current!.permission = nil
        emit(.permissionAnswered(.init(requestID: request.requestID, permission: request.permission, granted: answer.granted)))
        return status
    }

    private func cancel(_ params: CancelParams) throws(ControlError) -> SessionStatus {
        try requireMeant(params, "run.cancel")
        guard current?.state == .running else { throw .noRunningRun("run.cancel") }
        finish(params.save ? .saved : .discarded)
        return status
    }

    private func resume(_ reference: RunReference) throws(ControlError) -> SessionStatus {
        if let current, current.state == .running { throw .runAlreadyRunning(taskRunUUID: current.uuid, taskIdentifier: identifier(of: current.task)) }
        guard var run = kept[reference.taskRunUUID] else { throw .notFound("Run \(reference.taskRunUUID)", taskRunUUID: reference.taskRunUUID) }
        guard run.state == .saved else {
            throw ControlError(.commandOutOfOrder, "Run \(run.uuid) \(run.state.rawValue) and cannot be resumed; only saved runs can.",
                               data: ControlErrorData(taskRunUUID: run.uuid, state: run.state.rawValue, allowed: ["run.result", "run.archive"]))
        }
        run.state = .running
        current = run
        show()
        return status
    }

    private func runs() -> RunList {
        RunList(runs: kept.values.sorted { $0.uuid < $1.uuid }.map { run in
            RunListEntry(taskRunUUID: run.uuid, taskIdentifier: identifier(of: run.task), state: run.state,
                         runDirectory: run.runDirectory, archive: run.archive)
        })
    }

    private func result(_ reference: RunReference) throws(ControlError) -> RunResult {
        guard let run = kept[reference.taskRunUUID] ?? current.flatMap({ $0.uuid == reference.taskRunUUID ? $0 : nil }) else {
            throw .notFound("Run \(reference.taskRunUUID)", taskRunUUID: reference.taskRunUUID)
        }
        let history: [JSONValue] = run.history.map { ["type": "base", "identifier": .string($0)] }
        return RunResult(taskRunUUID: run.uuid, state: run.state, runDirectory: run.runDirectory, archive: run.archive,
                         taskResult: ["type": "task", "identifier": .string(identifier(of: run.task)),
                                      "taskRunUUID": .string(run.uuid), "stepHistory": .array(history)],
                         // A running run's open sections, as the daemon gives them (docs/runs.md): the
                         // canned tasks have no sections.
                         openSections: run.state == .running ? [] : nil)
    }

    private func archive(_ reference: RunReference) throws(ControlError) -> ArchiveLocation {
        guard let run = kept[reference.taskRunUUID] else { throw .notFound("Run \(reference.taskRunUUID)", taskRunUUID: reference.taskRunUUID) }
        guard let archive = run.archive else {
            throw ControlError(.commandOutOfOrder, "Run \(run.uuid) has no archive yet; it is written when the run finishes.")
        }
        return ArchiveLocation(taskRunUUID: run.uuid, archive: archive)
    }

    private static func nothingRecorded(_ reference: RunReference) -> ControlError {
        .notFound("Quality checks of run \(reference.taskRunUUID)", taskRunUUID: reference.taskRunUUID)
    }

    // MARK: State

    private var sessionState: ControlSessionState {
        if let current {
            switch current.state {
            case .running: return current.permission != nil ? .waitingForPermission : (current.timer.map { $0.running || $0.elapsed == 0 } ?? true) ? .running : .paused
            case .saved: return .saved
            default: return .finished
            }
        }
        return loaded == nil ? .idle : .loaded
    }

    private var status: SessionStatus {
        guard let current else { return SessionStatus(state: sessionState, taskIdentifier: loaded.map { identifier(of: $0.task) }) }
        let running = current.state == .running
        return SessionStatus(
            state: sessionState, taskIdentifier: identifier(of: current.task), taskRunUUID: current.uuid,
            runDirectory: current.runDirectory, step: running ? stepShown(current, direction: "forward") : nil,
            timer: running ? current.timer : nil, permissionRequest: current.permission,
            finishReason: running ? nil : current.state, archive: current.archive)
    }

    private func requireRunning(_ method: String) throws(ControlError) {
        guard let current else { throw .noRunningRun(method) }
        guard current.state == .running else {
            throw .outOfOrder(method, state: sessionState.rawValue, allowed: current.state == .saved ? ["run.resume"] : ["task.load", "run.result"])
        }
    }

    // MARK: Steps

    private func show(direction: String = "forward") {
        guard let run = current else { return }
        let step = run.steps[run.index]
        current!.history.append(step["identifier"]?.stringValue ?? "")
        current!.timer = step["duration"]?.doubleValue.map { TimerStatus(stepPath: path(run), duration: $0, elapsed: 0, running: false) }
        emit(.stepShown(stepShown(current!, direction: direction)))
        if let spoken = step["spokenInstructions"]?["start"]?.stringValue {
            emit(.promptSpoken(.init(stepPath: path(run), text: spoken, spokenUptime: uptime)))
        }
        if let timer = current!.timer, step["type"]?.stringValue == "active" || step["type"]?.stringValue == "countdown" {
            current!.timer!.running = true
            emit(.timerStarted(.init(stepPath: timer.stepPath, duration: timer.duration, elapsed: 0, remaining: timer.duration)))
        }
    }

    private func leave() {
        guard let run = current else { return }
        if run.index + 1 < run.steps.count {
            current!.index += 1
            show()
        } else {
            finish(.completed)
        }
    }

    private func finish(_ reason: RunState) {
        guard var run = current else { return }
        run.state = reason
        run.timer = nil
        if reason != .saved && reason != .discarded { run.archive = "\(run.runDirectory)/\(run.uuid).zip" }
        current = run
        kept[run.uuid] = run
        emit(.taskFinished(.init(taskRunUUID: run.uuid, reason: reason, runDirectory: run.runDirectory, archive: run.archive)))
    }

    private func advanceTimer() {
        guard let run = current, run.state == .running, let timer = run.timer, timer.running else { return }
        let elapsed = min(timer.elapsed + 1, timer.duration)
        current!.timer!.elapsed = elapsed
        if run.steps[run.index]["type"]?.stringValue == "active" {
            emit(.motionProgress(.init(identifier: "motion", samplesWritten: Int(elapsed) * 100, achievedRate: 100)))
            emit(.audioLevel(.init(identifier: "microphone", averageDBFS: -42.5, peakDBFS: -20.25)))
        }
        emit(.timerTick(.init(stepPath: timer.stepPath, elapsed: elapsed, remaining: timer.duration - elapsed)))
        if elapsed >= timer.duration {
            current!.timer!.running = false
            emit(.timerFinished(.init(stepPath: timer.stepPath, elapsed: elapsed, remaining: 0)))
            if run.steps[run.index]["transitionAutomatically"] == .bool(true) { leave() }
        }
    }

    private func stepShown(_ run: Run, direction: String) -> StepShownEvent {
        let step = run.steps[run.index]
        var actions: [StepAction] = [.forward, .skip, .abandon, .cancel]
        if run.index > 0 { actions.insert(.back, at: 1) }
        if step["duration"] != nil { actions += [.timerStart, .timerPause, .timerResume] }
        return StepShownEvent(
            stepPath: path(run), step: step, type: step["type"]?.stringValue ?? "instruction", direction: direction,
            progress: StepProgress(current: run.index + 1, total: run.steps.count, isEstimated: false),
            allowedActions: actions, duration: step["duration"]?.doubleValue)
    }

    private func path(_ run: Run) -> String {
        "\(identifier(of: run.task))/\(run.steps[run.index]["identifier"]?.stringValue ?? "")"
    }

    private var uptime: Double { Date().timeIntervalSince(started) }

    private func emit(_ payload: ControlEventPayload) {
        sequence += 1
        continuation.yield(ControlEvent(sequence: sequence, uptime: uptime, payload: payload, taskRunUUID: current?.uuid))
    }

    // MARK: Task JSON

    private func readTask(_ params: TaskLoadParams) throws(ControlError) -> JSONValue {
        let task: JSONValue
        if let path = params.path {
            guard let data = FileManager.default.contents(atPath: path) else { throw .notFound("Task file \(path)") }
            do {
                task = try JSONDecoder().decode(JSONValue.self, from: data)
            } catch {
                throw .taskInvalid(codingPath: "", reason: "the file is not JSON.")
            }
        } else {
            task = params.task ?? .null
        }
        guard case .string? = task["identifier"] else { throw .taskInvalid(codingPath: "identifier", reason: "a task needs an identifier (a string).") }
        guard case .array(let steps)? = task["steps"] else { throw .taskInvalid(codingPath: "steps", reason: "a task needs a steps array.") }
        for (index, step) in steps.enumerated() {
            guard case .string? = step["identifier"] else {
                throw .taskInvalid(codingPath: "steps[\(index)].identifier", reason: "every step needs an identifier (a string).")
            }
        }
        return task
    }

    private func steps(of task: JSONValue) -> [JSONValue] {
        if case .array(let steps)? = task["steps"] { return steps }
        return []
    }

    private func asyncActions(of task: JSONValue) -> [JSONValue] {
        if case .array(let actions)? = task["asyncActions"] { return actions }
        return []
    }

    private func identifier(of task: JSONValue) -> String { task["identifier"]?.stringValue ?? "" }
}
