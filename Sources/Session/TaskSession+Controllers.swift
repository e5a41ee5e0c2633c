import AsyncActions
import BlockingCalls
import Clocks
import Foundation
import Logging
import TaskModel
import TaskNavigation

extension TaskSession {
    // MARK: Creating and permissions

    /// Creates the controller of `reference` (its owner or start step is shown) and decides its
    /// permissions: policy first, the front end when the policy says ask, then the controller's
    /// own check that its device opens.
    func create(_ reference: AsyncActionReference, on step: Step) async {
        let key = reference.description
        if let existing = controllers[key], existing.isActive { return }
        let output = makeOutput(for: reference)
        let controller = settings.makeController(reference.configuration, output)
        controllers[key] = ControllerEntry(reference: reference, controller: controller, output: output, phase: .preparing)
        controllerOrder.removeAll { $0 == key }
        controllerOrder.append(key)
        pumpEvents(of: controller, key: key)

        var waitingFor: [UInt64] = []
        for permission in reference.configuration.permissionTypes {
            switch machine.ledger.request(permission, for: key, now: RecordingClock.monotonic()) {
            case .granted:
                continue
            case .denied:
                await fail(key, code: .permissionDenied, message: "Permission \"\(permission.rawValue)\" was denied, so \(reference.identifier) does not record. Change the permission policy or answer the request to record it.")
                return
            case .waiting(let id):
                waitingFor.append(id)
            case .ask(let question):
                waitingFor.append(question.id)
                let entry = permissionEntry(permission, shownOn: step)
                let offset = RecordingClock.uptime() - RecordingClock.monotonic()
                events.publish(.permissionRequest(PermissionRequest(
                    id: question.id, permission: permission.rawValue, title: entry?["title"]?.stringValue,
                    reason: entry?["reason"]?.stringValue, actions: [reference.identifier],
                    deadlineUptime: question.deadline + offset)))
                let id = question.id
                let delay = question.deadline - RecordingClock.monotonic()
                schedule { [weak self] in
                    do { try await Task.sleep(for: .seconds(max(delay, 0))) } catch { return }
                    try? await self?.submit(.event(.permissionDeadline(id: id, atMonotonic: RecordingClock.monotonic())))
                }
            }
        }
        if waitingFor.isEmpty {
            await requestDevice(key)
        } else {
            controllers[key]?.phase = .asking
            _ = machine.handle(.permissionAsked)
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
        guard let entry = controllers[key], entry.phase == .preparing || entry.phase == .asking else { return }
        controllers[key]?.phase = .preparing
        do {
            try await entry.controller.requestPermission()
            // Re-check after the await: the run may have ended or the action been stopped.
            guard controllers[key]?.phase == .preparing else { return }
            controllers[key]?.phase = .ready
            // An action created while its owner's timer already runs starts at once.
            if let shown = machine.shown, shown.clock?.timer.isRunning == true { await startController(key, stepPath: shown.path) }
        } catch {
            await fail(key, code: .permissionDenied, message: Self.message(of: error))
        }
    }

    /// Carries out the answer to `question` (the machine has recorded it): the actions it
    /// granted ask their devices, the ones it denied fail; the session goes on once no
    /// question is open.
    func permissionAnswered(_ question: PermissionLedger.Question, granted: Bool, byTimeout: Bool) async {
        events.publish(.permissionAnswered(id: question.id, permission: question.permission.rawValue, granted: granted))
        for key in question.waiting {
            guard controllers[key]?.phase == .asking else { continue }
            if granted {
                // Other permissions of the same action may still be open.
                let stillOpen = machine.ledger.open.values.contains { $0.waiting.contains(key) }
                if !stillOpen { await requestDevice(key) }
            } else {
                let how = byTimeout ? "was not answered within \(String(format: "%g", machine.ledger.timeout)) s" : "was denied"
                await fail(key, code: .permissionDenied, message: "Permission \"\(question.permission.rawValue)\" \(how), so \(controllers[key]?.reference.identifier ?? key) does not record.")
            }
        }
        guard !machine.isEnding else { return }
        await feed(.permissionsSettled(atMonotonic: RecordingClock.monotonic()))
    }

    // MARK: Starting and stopping

    /// Every created action with permission starts with the step timer (DESIGN: section 3).
    func startReadyControllers(stepPath: String) async {
        await start(controllerOrder.filter { controllers[$0]?.phase == .ready }, stepPath: stepPath)
    }

    func startController(_ key: String, stepPath: String) async {
        await start([key], stepPath: stepPath)
    }

    /// Starts the ready actions `keys` all at once: one device slow to start (a sound server on a
    /// busy machine) does not hold back the first samples of the others.
    func start(_ keys: [String], stepPath: String) async {
        let starting = keys.compactMap { key -> (String, any AsyncActionController)? in
            guard let entry = controllers[key], entry.phase == .ready else { return nil }
            controllers[key]?.phase = .running
            return (key, entry.controller)
        }
        guard !starting.isEmpty else { return }
        let before = await runFiles()
        let failures = await withTaskGroup(of: (String, String?).self) { group in
            for (key, controller) in starting {
                group.addTask {
                    do {
                        try await controller.start(stepPath: stepPath)
                        return (key, nil)
                    } catch {
                        return (key, TaskSession.message(of: error))
                    }
                }
            }
            var failed: [(String, String)] = []
            for await (key, message) in group {
                if let message { failed.append((key, message)) }
            }
            return failed
        }
        for (key, message) in failures {
            await fail(key, code: .deviceFailed, message: message)
        }
        // The files the recorders created, so that recovery after a crash can repair them and
        // give them file results (the manifest lists them as unfinished until stop). Each file
        // goes to the recorder whose base name it starts with (the longest, if two would do).
        let started = Date()
        let created = await runFiles().subtracting(before).sorted()
        for name in created {
            let stem = (name as NSString).deletingPathExtension
            let owner = starting.map(\.0)
                .filter { controllers[$0]?.phase == .running }
                .compactMap { key in controllers[key].map { (key, $0.output.baseName) } }
                .filter { stem.hasPrefix($0.1) }
                .max { $0.1.count < $1.1.count }
            guard let (key, baseName) = owner, let entry = controllers[key] else { continue }
            let suffix = String(stem.dropFirst(baseName.count))
            let contentType = switch (name as NSString).pathExtension {
            case "wav": "audio/wav"
            case "csv": "text/csv"
            default: "application/json"
            }
            let identifier = suffix.hasPrefix("_") ? entry.reference.identifier + suffix : entry.reference.identifier
            controllers[key]?.files.append(RunManifest.File(identifier: identifier, relativePath: name, contentType: contentType, startDate: started))
        }
    }

    /// The names in the run directory.
    func runFiles() async -> Set<String> {
        let url = run.url
        return (try? await BlockingCall.run("run-list") {
            Set(try FileManager.default.contentsOfDirectory(atPath: url.path))
        }) ?? []
    }

    /// Stops the actions `keys`: running ones hand over their results into the result of the
    /// task or section that declared them; ones that never started are cancelled.
    ///
    /// The running ones stop all at once, as they started: a device that hangs in its stop (a
    /// sound server gone mid-read) does not keep the others recording past their step. A
    /// controller that failed before or during its stop hands back its error result; that is a
    /// failure like one reported while recording, and the front end hears of it.
    func stop(_ keys: [String]) async {
        var stopping: [(key: String, controller: any AsyncActionController)] = []
        for key in keys {
            guard let entry = controllers[key] else { continue }
            switch entry.phase {
            case .running:
                controllers[key]?.phase = .stopped
                stopping.append((key, entry.controller))
            case .preparing, .asking, .ready:
                controllers[key]?.phase = .cancelled
                await entry.controller.cancel()
            case .stopped, .failed, .cancelled:
                continue
            }
        }
        guard !stopping.isEmpty else { return }
        let outcomes = await withTaskGroup(of: (Int, Result<[any ResultData], any Error>).self) { group in
            for (index, action) in stopping.enumerated() {
                group.addTask {
                    do { return (index, .success(try await action.controller.stop())) } catch { return (index, .failure(error)) }
                }
            }
            var outcomes = [Result<[any ResultData], any Error>?](repeating: nil, count: stopping.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes
        }
        // In declaration order, so results land in the order the actions were created.
        for (action, outcome) in zip(stopping, outcomes) {
            // Re-check: a failure event handled meanwhile records the error itself.
            guard controllers[action.key]?.phase == .stopped, let outcome else { continue }
            switch outcome {
            case .success(let produced):
                if let failure = produced.lazy.compactMap({ $0 as? ErrorResult }).first {
                    controllers[action.key]?.phase = .running
                    await fail(action.key, code: .deviceFailed, message: failure.errorDescription, result: failure)
                } else {
                    for result in produced { record(result, for: action.key) }
                }
            case .failure(let error):
                controllers[action.key]?.phase = .running
                await fail(action.key, code: .deviceFailed, message: Self.message(of: error))
            }
        }
    }

    /// Cancels every action still active (a discarded run): their files are deleted.
    func cancelAll() async {
        for key in controllerOrder {
            guard let entry = controllers[key], entry.isActive else { continue }
            controllers[key]?.phase = .cancelled
            await entry.controller.cancel()
        }
    }

    // MARK: Results and failures

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

    /// Records the `<identifier>_error` result of a failed action once, tells the front end, and
    /// ends the run when the step or task says `shouldEndOnInterrupt`.
    func fail(_ key: String, code: AsyncActionError.Code, message: String, result: ErrorResult? = nil) async {
        guard let entry = controllers[key], ![.failed, .cancelled, .stopped].contains(entry.phase) else { return }
        let wasRunning = entry.phase == .running
        controllers[key]?.phase = .failed
        let error = result ?? ErrorResult(
            identifier: "\(entry.reference.identifier)_error", startDate: Date(), endDate: Date(),
            errorDescription: message, errorDomain: AsyncActionError.domain, errorCode: code.rawValue)
        results.appendAsyncResult(error, ownerPath: task.identifiers(along: entry.reference.ownerLocation))
        logger.error("Async action failed", metadata: ["controller": "\(entry.reference.identifier)", "error": "\(error.errorDescription)"])
        events.publish(.actionFailed(identifier: entry.reference.identifier, owner: entry.reference.owner, message: error.errorDescription))
        if !wasRunning { await entry.controller.cancel() }
        await writeManifest()
        // The run ends here when the step or task says `shouldEndOnInterrupt`.
        await feed(.actionFailed)
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
            try? await oneAtATime { () throws(SessionError) in
                await fail(key, code: .deviceFailed, message: result.errorDescription, result: result)
            }
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

    /// Where an action writes: `<section>_<identifier>` inside a section, else `<identifier>`.
    func makeOutput(for reference: AsyncActionReference) -> RecorderOutput {
        let section = reference.ownerLocation == .root ? nil : task.step(at: reference.ownerLocation)?.identifier
        let base = uniqueBaseName(RecorderFileName.baseName(sectionIdentifier: section, identifier: reference.identifier))
        var logger = logger
        logger[metadataKey: "controller"] = "\(reference.identifier)"
        return RecorderOutput(directory: run.url, baseName: base, taskRunUUID: taskRunUUID, ownerPath: reference.owner, logger: logger)
    }
}
