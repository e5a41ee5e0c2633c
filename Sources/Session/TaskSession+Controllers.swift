import AsyncActions
import BlockingCalls
import Clocks
import Foundation
import Logging
import TaskModel
import TaskNavigation

extension TaskSession {
    // MARK: Creating and permissions

    /// Creates the controllers of `references` (their owner or start step at `location` is
    /// shown); the machine decides their permissions as each is created.
    func createActions(_ references: [AsyncActionReference], on location: StepLocation) async {
        for reference in references {
            let key = reference.description
            if machine.actions[key]?.isActive == true { continue }
            let output = makeOutput(for: reference)
            let controller = settings.makeController(reference.configuration, output)
            controllers[key] = ControllerEntry(reference: reference, controller: controller, output: output)
            pumpEvents(of: controller, key: key)
            await feed(.actionCreated(reference, on: location))
            // Re-check: a failing action on a step that ends on interrupt may have ended the run.
            guard !machine.state.isOver else { return }
        }
    }

    /// Publishes a permission question for the front end and schedules its deadline.
    func askPermission(_ question: PermissionLedger.Question, actionIdentifier: String, on location: StepLocation) {
        let entry = task.step(at: location).flatMap { permissionEntry(question.permission, shownOn: $0) }
        let offset = RecordingClock.uptime() - RecordingClock.monotonic()
        events.publish(.permissionRequest(PermissionRequest(
            id: question.id, permission: question.permission.rawValue, title: entry?["title"]?.stringValue,
            reason: entry?["reason"]?.stringValue, actions: [actionIdentifier],
            deadlineUptime: question.deadline + offset)))
        let id = question.id
        let delay = question.deadline - RecordingClock.monotonic()
        schedule { [weak self] in
            do { try await Task.sleep(for: .seconds(max(delay, 0))) } catch { return }
            try? await self?.submit(.event(.permissionDeadline(id: id)))
        }
    }

    /// The `permissions[]` entry (title, reason) that explains `permission`: the step shown's,
    /// else the first in the task (SageResearch tasks explain them on their overview step,
    /// while the recorder asking is created later, at its own step).
    func permissionEntry(_ permission: PermissionType, shownOn step: Step) -> [String: JSONValue]? {
        func entry(in step: Step) -> [String: JSONValue]? {
            (step.properties["permissions"]?.arrayValue ?? []).compactMap(\.objectValue).first {
                $0["permissionType"]?.stringValue == permission.rawValue || $0["type"]?.stringValue == permission.rawValue
            }
        }
        if let shown = entry(in: step) { return shown }
        for location in task.allLocations() {
            if let step = task.step(at: location), let found = entry(in: step) { return found }
        }
        return nil
    }

    /// The controller's own permission step: can its device be opened?
    func requestDevice(_ key: String) async {
        guard let entry = controllers[key] else { return }
        do {
            try await entry.controller.requestPermission()
            await feed(.deviceChecked(key: key, failure: nil))
        } catch {
            // Its own code where it gave one: an unsupported type is no denial (docs/quality.md).
            await feed(.deviceChecked(key: key, failure: (error as? AsyncActionError) ?? AsyncActionError(.permissionDenied, Self.message(of: error))))
        }
    }

    // MARK: Starting and stopping

    /// Starts the actions `keys` (the machine marked them running) all at once: one device slow
    /// to start (a sound server on a busy machine) does not hold back the first samples of the
    /// others.
    func startControllers(_ keys: [String], stepPath: String) async {
        let starting = keys.compactMap { key -> (String, any AsyncActionController)? in
            controllers[key].map { (key, $0.controller) }
        }
        guard !starting.isEmpty else { return }
        let outcomes = await concurrentOutcomes(of: starting.map(\.1)) { try await $0.start(stepPath: stepPath) }
        for ((key, _), outcome) in zip(starting, outcomes) {
            if case .failure(let error) = outcome {
                await feed(.actionStartFailed(key: key, message: Self.message(of: error)))
            }
        }
        // The files the recorders created, so that recovery after a crash can repair them and
        // give them file results (the manifest lists them as unfinished until stop): each
        // output tells the names it claimed and their file result identifiers.
        let started = Date()
        for (key, _) in starting where machine.actions[key] == .running {
            guard let entry = controllers[key] else { continue }
            let listed = Set(entry.files.map(\.relativePath))
            for claim in entry.output.claims.all where !listed.contains(claim.name) {
                let contentType = switch (claim.name as NSString).pathExtension {
                case "wav": "audio/wav"
                case "csv": "text/csv"
                default: "application/json"
                }
                controllers[key]?.files.append(RunManifest.File(
                    identifier: claim.identifier, relativePath: claim.name, contentType: contentType, startDate: started))
            }
        }
    }

    /// Stops the controllers `keys` (the machine marked them stopped): they hand over their
    /// results, which the machine has recorded into the result of the task or section that
    /// declared them unless a failure came first.
    ///
    /// They stop all at once, as they started: a device that hangs in its stop (a sound server
    /// gone mid-read) does not keep the others recording past their step. A controller that
    /// failed before or during its stop hands back its error result; that is a failure like one
    /// reported while recording, and the front end hears of it.
    func stopControllers(_ keys: [String]) async {
        let stopping: [(key: String, controller: any AsyncActionController)] = keys.compactMap { key in
            controllers[key].map { (key, $0.controller) }
        }
        guard !stopping.isEmpty else { return }
        let outcomes = await concurrentOutcomes(of: stopping.map(\.controller)) { try await $0.stop() }
        // In declaration order, so results land in the order the actions were created.
        for (action, outcome) in zip(stopping, outcomes) {
            switch outcome {
            case .success(let produced):
                if let failure = produced.lazy.compactMap({ $0 as? ErrorResult }).first {
                    await feed(.actionStopped(key: action.key, outcome: .errorResult(failure)))
                } else {
                    stopResults[action.key] = produced
                    await feed(.actionStopped(key: action.key, outcome: .results))
                    stopResults[action.key] = nil
                }
            case .failure(let error):
                await feed(.actionStopped(key: action.key, outcome: .failed(message: Self.message(of: error))))
            }
        }
    }

    /// Cancels the controllers `keys` (their files are deleted).
    func cancelControllers(_ keys: [String]) async {
        for key in keys {
            await controllers[key]?.controller.cancel()
        }
    }

    // MARK: Results and failures

    /// Records what the stop of `key` handed over.
    func recordStopResults(_ key: String) {
        for result in stopResults.removeValue(forKey: key) ?? [] { record(result, for: key) }
    }

    func record(_ result: any ResultData, for key: String) {
        guard let entry = controllers[key] else { return }
        results.appendAsyncResult(result, ownerPath: task.identifiers(along: entry.reference.ownerLocation))
        // The closed files replace the ones listed at start (a file deleted at stop, such as
        // audio not kept, goes from the list).
        let closed = Self.relativePaths(in: result)
        let kept = entry.files.filter { listed in
            listed.isFinished && !closed.contains { $0.relativePath == listed.relativePath }
        }
        controllers[key]?.files = closed + kept
    }

    /// The files a result names, as the manifest lists them (closed: their result is recorded).
    static func relativePaths(in result: any ResultData) -> [RunManifest.File] {
        if let file = result as? FileResult {
            return [RunManifest.File(
                identifier: file.identifier, relativePath: file.relativePath, contentType: file.contentType ?? "application/octet-stream",
                startDate: file.startDate, startUptime: file.startUptime, isFinished: true)]
        }
        if let collection = result as? CollectionResult { return collection.children.flatMap { relativePaths(in: $0.result) } }
        return []
    }

    /// Records the `<identifier>_error` result of a failed action (the machine lets each fail
    /// once) and tells the front end.
    func recordFailure(_ key: String, code: AsyncActionError.Code, message: String, result: ErrorResult?) {
        guard let entry = controllers[key] else { return }
        let error = result ?? ErrorResult(
            identifier: "\(entry.reference.identifier)_error", startDate: Date(), endDate: Date(),
            errorDescription: message, errorDomain: AsyncActionError.domain, errorCode: code.rawValue)
        results.appendAsyncResult(error, ownerPath: task.identifiers(along: entry.reference.ownerLocation))
        logger.error("Async action failed", metadata: ["controller": "\(entry.reference.identifier)", "error": "\(error.errorDescription)"])
        events.publish(.actionFailed(identifier: entry.reference.identifier, owner: entry.reference.owner, message: error.errorDescription))
    }

    /// Forwards a controller's events to the session until they end.
    func pumpEvents(of controller: any AsyncActionController, key: String) {
        let stream = controller.events
        schedule { [weak self] in
            for await event in stream {
                await self?.controllerEvent(event, key: key)
            }
        }
    }

    func controllerEvent(_ event: AsyncActionEvent, key: String) async {
        guard let entry = controllers[key] else { return }
        let identifier = entry.reference.identifier
        switch event.kind {
        case .statusChanged(let status):
            events.publish(.actionStatus(identifier: identifier, owner: entry.reference.owner, status: status), uptime: event.uptime)
        case .failed(let result):
            // Takes its turn like any input: it never interleaves with a command at its awaits.
            try? await submit(.event(.actionFailed(key: key, result: result)))
        case .warning(let message):
            events.publish(.warning(message: message, identifier: identifier), uptime: event.uptime)
        case .progress(.audioLevel(let average, let peak)):
            events.publish(.audioLevel(identifier: identifier, averageDBFS: average, peakDBFS: peak), uptime: event.uptime)
        case .progress(.motion(let samples, let rate)):
            events.publish(.motionProgress(identifier: identifier, samplesWritten: samples, achievedRate: rate), uptime: event.uptime)
        }
    }

    static func message(of error: any Error) -> String {
        if let error = error as? AsyncActionError { return error.message }
        return "\(error)"
    }

    // MARK: Output

    /// Where an action writes: files named after `<section>_<identifier>` inside a section,
    /// else `<identifier>`, as MobilePassiveData names them (docs/async-actions.md). The files
    /// of the other actions and of the run before a resume are never deleted or reused.
    func makeOutput(for reference: AsyncActionReference) -> RecorderOutput {
        let section = reference.ownerLocation == .root ? nil : task.step(at: reference.ownerLocation)?.identifier
        var logger = logger
        logger[metadataKey: "controller"] = "\(reference.identifier)"
        let others = controllers.values.filter { $0.key != reference.description }.flatMap { $0.files.map(\.relativePath) }
        return RecorderOutput(
            directory: run.url, sectionIdentifier: section, identifier: reference.identifier,
            protectedNames: takenNames.union(others).union(RunDirectory.reservedNames.map { "\($0).json" }),
            taskRunUUID: taskRunUUID, ownerPath: reference.owner, logger: logger)
    }
}
