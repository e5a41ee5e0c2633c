import ControlProtocol
import Foundation
import Session
import TaskModel

/// The commands that start, resume and drive a run (`DaemonHost+Handlers.swift` routes them).
extension DaemonHost {
    /// `run.forward`: leaves the step on screen with the front end's answers or result.
    func forward(_ params: ForwardParams) async throws {
        let session = try current(ControlMethods.runForward.name, run: params.taskRunUUID)
        let answers = (params.answers ?? []).map {
            StepResultInput.Answer(identifier: $0.identifier, value: $0.value, answerType: $0.answerType)
        }
        var result: TappingResult?
        // The step the result belongs to: the one the front end names (the session refuses the
        // forward when another is shown by then), else the one shown now.
        if let json = params.result {
            let shown = await session.currentStepPath
            if let step = params.stepPath ?? shown { result = try Self.frontEndResult(json, forStep: step) }
        }
        try await session.forward(StepResultInput(
            answers: answers, skipToIdentifier: params.skipToIdentifier, result: result, stepPath: params.stepPath))
    }

    /// `run.start`: a new session of the loaded task with the participant's cohorts and
    /// instructions mode.
    func startRun(_ params: RunStartParams = RunStartParams()) async throws {
        try await refuseWhileARunGoes()
        try admission.refusal.map { throw $0 }
        guard let loaded else {
            throw ControlError.outOfOrder("run.start", state: "no task loaded", allowed: ["task.load"])
        }
        await finishPreviousRunIfUnfinished()
        var settings = await sessionSettings()
        settings.cohorts = Set(params.cohorts ?? [])
        settings.showsFullInstructions = params.fullInstructions ?? true
        let created = try await TaskSession.create(task: loaded.task, store: store, settings: settings)
        // Re-check after the awaits: another client may have started a run meanwhile.
        do {
            try await refuseWhileARunGoes()
        } catch {
            _ = try? await created.cancel(save: false)
            throw error
        }
        launch(created)
        try await created.start()
    }

    func resume(_ uuid: UUID) async throws {
        try await refuseWhileARunGoes()
        try admission.refusal.map { throw $0 }
        _ = try await runSummary(of: uuid)
        let resumed: TaskSession
        do {
            resumed = try await TaskSession.resume(
                uuid, store: store, loader: TaskLoader(registry: settings.typeRegistry, taskDirectory: settings.taskDirectory),
                settings: await sessionSettings())
        } catch {
            throw ControlError.outOfOrder("run.resume", state: error.message, allowed: ["run.resume of a saved run"])
        }
        launch(resumed)
        try await resumed.start()
    }

    func sessionSettings() async -> SessionSettings {
        let controllers = settings.controllers
        return SessionSettings(
            makeController: { controllers.makeController(for: $0, output: $1) },
            permissionPolicy: settings.permissionPolicy, voice: await voicePrompter().map(PrompterVoice.init),
            quality: QualityChecks(thresholds: settings.qualityThresholds), logger: logger)
    }

    /// The session of the current run, for `method`; refused when there is none, or when `run`
    /// (the run the client means, docs/protocol.md "The run a command means") is another.
    func current(_ method: String, run: String? = nil) throws -> TaskSession {
        guard let session else {
            guard let run else { throw ControlError.noRunningRun(method) }
            throw ControlError.notTheCurrentRun(method, meant: run, current: nil)
        }
        if let run, UUID(uuidString: run) != session.taskRunUUID {
            throw ControlError.notTheCurrentRun(method, meant: run, current: session.taskRunUUID.uuidString)
        }
        return session
    }

    /// Closes the daemon to new runs for a restart into a newly installed version (SIGUSR2,
    /// docs/install.md "Upgrades") and returns once no run is going: a run under way records to
    /// its end, and none starts after this call, so the restart that follows cuts nothing.
    /// Checked in the actor's own steps, so no run can start between the check and the restart.
    /// False when the daemon began stopping meanwhile (then it stops instead of restarting).
    func closeForRestart() async -> Bool {
        if admission == .open { admission = .restarting }
        // What is waited for is the end of the run's events: its last one (taskFinished) passed
        // on to the clients, after which the session publishes nothing. The gate's `end()`
        // releases the wait (`eventsEnded(of:)`, or `stopSettling()` when the daemon stops), so
        // nothing polls; the state is checked again after the wait.
        while admission == .restarting, session != nil, consumingEvents, appliedEvents.mustWait(for: .max) {
            await withCheckedContinuation { appliedEvents.enqueue(.max, $0) }
        }
        return admission == .restarting
    }

    /// Refuses a load, start or resume while a run goes on (one run at a time).
    func refuseWhileARunGoes() async throws {
        if let session, !(await session.state.isOver) {
            throw ControlError.runAlreadyRunning(taskRunUUID: session.taskRunUUID.uuidString, taskIdentifier: session.task.identifier)
        }
    }
}
