import AsyncActions
import ALSA
import BlockingCalls
import Clocks
import ControlProtocol
import ControlServer
import Foundation
import Logging
import Motion
import Quality
import RunReport
import Session
import TaskModel

/// What the handlers (`DaemonHost+Handlers.swift`) carry out.
extension DaemonHost {
    // MARK: Run commands

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

    // MARK: Finished runs

    /// `run.archive`: where a run's upload archive is.
    func archive(of uuid: UUID) async throws -> ArchiveLocation {
        guard let summary = await runSummaries().first(where: { $0.taskRunUUID == uuid }) else {
            throw ControlError.notFound("run", taskRunUUID: uuid.uuidString)
        }
        guard let archive = summary.archive else {
            throw ControlError(.notFound, "The run \(uuid) has no archive yet: it is \(summary.status?.rawValue ?? "unreadable"). Wait for it to finish, or resume it if it was saved.")
        }
        return ArchiveLocation(taskRunUUID: uuid.uuidString, archive: archive.path)
    }

    /// `run.qc`: a finished run's quality checks, written first when the run has none yet.
    func quality(of reference: RunReference) async throws -> RunQualityResult {
        let (uuid, directory) = try await finishedRun(reference, for: ControlMethods.runQuality.name)
        let store = store, thresholds = settings.qualityThresholds
        let report = try await BlockingCall.run("run-quality") { () throws -> QualityReport in
            let url = directory.url.appendingPathComponent(QualityReport.fileName)
            if let data = FileManager.default.contents(atPath: url.path) {
                return try JSONDecoder().decode(QualityReport.self, from: data)
            }
            return try store.writeQuality(of: directory, with: QualityChecks(thresholds: thresholds))
        }
        return RunQualityResult(taskRunUUID: uuid.uuidString, summary: summary(report), report: try JSONValue.encoding(report))
    }

    /// `run.report`: writes a finished run's HTML report.
    func report(of reference: RunReference) async throws -> ReportLocation {
        let (uuid, directory) = try await finishedRun(reference, for: ControlMethods.runReport.name)
        let thresholds = settings.qualityThresholds
        let url = try await BlockingCall.run("run-report") {
            try RunReportWriter.write(runDirectory: directory.url, thresholds: thresholds)
        }
        return ReportLocation(taskRunUUID: uuid.uuidString, report: url.path)
    }

    static let version = "0.2.0"

    // MARK: Loading and starting

    /// `tasks.list`: the task directory's task files, read on a dedicated thread.
    func taskList() async throws -> TaskList {
        let catalog = TaskCatalog(directory: settings.taskDirectory,
                                  loader: TaskLoader(registry: settings.typeRegistry, taskDirectory: settings.taskDirectory))
        return try await BlockingCall.run("tasks-list") { catalog.list() }
    }

    /// `tasks.image`: an image file beside a task file, read on a dedicated thread.
    func taskImage(_ params: TaskImageParams) async throws -> TaskImage {
        let file = TaskImageFile(directory: settings.taskDirectory)
        return try await BlockingCall.run("tasks-image") { () throws -> TaskImage in try file.read(params) }
    }

    /// `tasks.resource`: a piece of a page or video beside a task file, read on a dedicated thread.
    func taskResource(_ params: TaskResourceParams) async throws -> TaskResource {
        let file = TaskResourceFile(directory: settings.taskDirectory)
        return try await BlockingCall.run("tasks-resource") { () throws -> TaskResource in try file.read(params) }
    }

    /// `task.load` from `peer`: a path only where `TaskLoadAccess` lets that client read, inline
    /// JSON through a folder that lives for the load only (`InlineTaskFolder`).
    func load(_ params: TaskLoadParams, from peer: PeerCredentials) async throws -> LoadedTask {
        if let session, !(await session.state.isOver) {
            throw ControlError.runAlreadyRunning(taskRunUUID: session.taskRunUUID.uuidString, taskIdentifier: session.task.identifier)
        }
        let loader = TaskLoader(registry: settings.typeRegistry, taskDirectory: settings.taskDirectory)
        let access = TaskLoadAccess(taskDirectory: settings.taskDirectory)
        let inline = InlineTaskFolder(dataDirectory: settings.dataDirectory)
        let (task, origin): (TaskDefinition, String) = try await BlockingCall.run("task-load") { () throws -> (TaskDefinition, String) in
            do {
                if let path = params.path {
                    let resolved = try access.resolve(path, for: peer)
                    var confined = loader
                    confined.includeRoots = access.includeRoots(for: peer)
                    return (try confined.loadTask(path: resolved).task, resolved)
                }
                let loaded = try inline.withFolder(for: params) { data, directory in
                    var confined = loader
                    confined.includeRoots = access.includeRoots(for: peer, inlineFolder: directory)
                    return try confined.load(data: data, displayName: "task", baseDirectory: directory)
                }
                guard case .task(let task) = loaded.document else {
                    throw ControlError.taskInvalid(codingPath: "task", reason: "This is a \(loaded.document.kindDescription), not a task; send the task that includes it.")
                }
                return (task, "inline")
            } catch let error as TaskLoadError {
                throw ControlError.taskInvalid(codingPath: error.codingPath, reason: "\(error.file): \(error.reason)")
            }
        }
        loaded = Loaded(task: task, origin: origin)
        logger.info("Task loaded", metadata: ["taskIdentifier": "\(task.identifier)", "origin": "\(origin)"])
        // The playback device runs from the task's load, so that its delay has settled and is
        // measured before the run's first prompt (docs/audio.md, "Voice prompts"); the run's end
        // lets it go. Opening the prompter here also moves that cost out of run.start.
        await voicePrompter()?.holdStream(true)
        return LoadedTask(
            taskIdentifier: task.identifier, schemaIdentifier: task.properties["schemaIdentifier"]?.stringValue,
            versionString: task.properties["versionString"]?.stringValue, stepCount: task.allLocations().count,
            asyncActions: task.allAsyncActionIdentifiers)
    }

    /// `run.start`: a new session of the loaded task with the participant's cohorts and
    /// instructions mode.
    func startRun(_ params: RunStartParams = RunStartParams()) async throws {
        if let session, !(await session.state.isOver) {
            throw ControlError.runAlreadyRunning(taskRunUUID: session.taskRunUUID.uuidString, taskIdentifier: session.task.identifier)
        }
        guard !shuttingDown else { throw ControlError(.shuttingDown, "The daemon is stopping; start the run when it is back.") }
        guard let loaded else {
            throw ControlError.outOfOrder("run.start", state: "no task loaded", allowed: ["task.load"])
        }
        await finishPreviousRunIfUnfinished()
        var settings = await sessionSettings()
        settings.cohorts = Set(params.cohorts ?? [])
        settings.showsFullInstructions = params.fullInstructions ?? true
        let created = try await TaskSession.create(task: loaded.task, store: store, settings: settings)
        // Re-check after the awaits: another client may have started a run meanwhile.
        if let session, !(await session.state.isOver) {
            _ = try? await created.cancel(save: false)
            throw ControlError.runAlreadyRunning(taskRunUUID: session.taskRunUUID.uuidString, taskIdentifier: session.task.identifier)
        }
        launch(created)
        try await created.start()
    }

    func resume(_ uuid: UUID) async throws {
        if let session, !(await session.state.isOver) {
            throw ControlError.runAlreadyRunning(taskRunUUID: session.taskRunUUID.uuidString, taskIdentifier: session.task.identifier)
        }
        guard await runSummaries().contains(where: { $0.taskRunUUID == uuid }) else {
            throw ControlError.notFound("run", taskRunUUID: uuid.uuidString)
        }
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

    // MARK: Queries

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

    func status() -> SessionStatus { snapshot.status }

    func runSummaries() async -> [RunSummary] {
        let store = store
        return (try? await BlockingCall.run("run-list") { store.runs() }) ?? []
    }

    static func entry(_ summary: RunSummary) -> RunListEntry {
        RunListEntry(
            taskRunUUID: summary.taskRunUUID.uuidString, taskIdentifier: summary.taskIdentifier ?? "",
            state: state(of: summary), startDate: summary.startDate.map { Timestamp.string(from: $0) },
            endDate: summary.endDate.map { Timestamp.string(from: $0) }, runDirectory: summary.directory.path,
            archive: summary.archive?.path, upload: summary.upload.map(RunUploadStatus.init))
    }

    static func state(of summary: RunSummary) -> RunState {
        if let reason = summary.finishReason { return RunState(reason) }
        return summary.status == .saved ? .saved : .running
    }

    func result(of uuid: UUID) async throws -> RunResult {
        guard let summary = await runSummaries().first(where: { $0.taskRunUUID == uuid }) else {
            throw ControlError.notFound("run", taskRunUUID: uuid.uuidString)
        }
        let directory = RunDirectory(url: summary.directory, taskRunUUID: uuid)
        if let session, session.taskRunUUID == uuid, await !session.state.isOver {
            // The live run's result as SageResearch has it (open sections not yet in it).
            let live = try JSONValue.encoding(await session.taskResult)
            return RunResult(taskRunUUID: uuid.uuidString, state: .running, runDirectory: summary.directory.path,
                             archive: nil, taskResult: live)
        }
        let value: JSONValue = try await BlockingCall.run("run-result") {
            let written = directory.url.appendingPathComponent(RunDirectory.taskResultName)
            if let data = FileManager.default.contents(atPath: written.path) {
                return try JSONDecoder().decode(JSONValue.self, from: data)
            }
            return try JSONValue.encoding(directory.readManifest().results)
        }
        return RunResult(taskRunUUID: uuid.uuidString, state: Self.state(of: summary), runDirectory: summary.directory.path,
                         archive: summary.archive?.path, taskResult: value, upload: summary.upload.map(RunUploadStatus.init))
    }

    /// The directory of a run that has ended (checks and reports read finished files).
    func finishedRun(_ reference: RunReference, for method: String) async throws -> (UUID, RunDirectory) {
        let uuid = try Self.uuid(reference)
        guard let summary = await runSummaries().first(where: { $0.taskRunUUID == uuid }) else {
            throw ControlError.notFound("run", taskRunUUID: uuid.uuidString)
        }
        guard summary.status == .final else {
            throw ControlError.outOfOrder(method, state: "run \(uuid) is \(summary.status?.rawValue ?? "unreadable")", allowed: ["\(method) once the run has finished"])
        }
        return (uuid, RunDirectory(url: summary.directory, taskRunUUID: uuid))
    }

    func devices() async throws -> DeviceList {
        let uri = settings.devices.iioURI
        let logger = logger
        let motion: [DeviceList.MotionDevice] = (try? await BlockingCall.run("devices-motion", deadline: .seconds(10)) {
            let source = try MotionSources.open(uri: uri, logger: logger)
            return [DeviceList.MotionDevice(
                name: uri, identifier: uri, sensors: source.availableSensors.sorted().map(Self.protocolName), samplingFrequencies: [])]
        }) ?? []
        let audio: [DeviceList.AudioDevice] = (try? await BlockingCall.run("devices-audio", deadline: .seconds(10)) {
            try AudioDevices.list(probe: false, logger: logger).map {
                DeviceList.AudioDevice(name: $0.name, description: $0.description,
                                       capture: $0.directions.contains(.capture), playback: $0.directions.contains(.playback))
            }
        }) ?? []
        return DeviceList(motion: motion, audio: audio)
    }

    /// A sensor as the protocol names it (SageResearch's recorder types): the gyroscope is `gyro`.
    static func protocolName(of sensor: SensorKind) -> String {
        sensor == .gyroscope ? "gyro" : sensor.rawValue
    }

    static func uuid(_ reference: RunReference) throws -> UUID {
        guard let uuid = UUID(uuidString: reference.taskRunUUID) else {
            throw ControlError(.invalidParams, "\"\(reference.taskRunUUID)\" is not a task run UUID; use one from runs.list.",
                               data: ControlErrorData(codingPath: "taskRunUUID"))
        }
        return uuid
    }

    /// A session's refusal as the socket says it.
    static func controlError(_ error: SessionError, method: String, state: ControlSessionState) -> ControlError {
        switch error.code {
        case .invalidState, .permissionPending:
            ControlError(.commandOutOfOrder, error.message, data: ControlErrorData(state: state.rawValue, method: method))
        case .notAllowed:
            ControlError(.actionNotAllowed, error.message, data: ControlErrorData(state: state.rawValue, method: method))
        case .invalidArgument:
            ControlError(.invalidParams, error.message, data: ControlErrorData(codingPath: error.codingPath, method: method))
        case .storageFailed:
            ControlError(.internalError, error.message, data: ControlErrorData(method: method))
        case .stepNotShown:
            ControlError.outOfOrder(method, state: "showing \(error.shownStepPath ?? "another step")",
                                    allowed: ["\(method) with stepPath \(error.shownStepPath ?? "of the step shown")"])
        }
    }
}

extension TaskDefinition {
    /// Every async action identifier the task declares, with its owner's path.
    var allAsyncActionIdentifiers: [String] {
        var result = asyncActions.map { "\(identifier):\($0.identifier)" }
        for location in allLocations() {
            guard let step = step(at: location), let container = step.container else { continue }
            result += container.asyncActions.map { "\(stepPath(of: location)):\($0.identifier)" }
        }
        return result
    }
}
