import BlockingCalls
public import Foundation
import Logging
public import TaskModel
import TaskNavigation

extension TaskSession {
    /// Opens the saved run `taskRunUUID` of `store` to go on with it (docs/session.md, "Save and
    /// resume"): history and results as they were saved; `start()` shows the step where it was
    /// saved, and the recorders of the sections still open record again into new files.
    public static func resume(
        _ taskRunUUID: UUID, store: RunStore, loader: TaskLoader = TaskLoader(), settings: SessionSettings
    ) async throws(SessionError) -> TaskSession {
        let resumed: RunStore.ResumedRun
        do {
            resumed = try await BlockingCall.run("run-resume") { try store.resume(taskRunUUID) }
        } catch {
            throw SessionError(.invalidState, "\(error)")
        }
        let loaded: LoadedDocument
        do {
            loaded = try loader.load(data: resumed.taskSource, displayName: "task.json", baseDirectory: resumed.directory.url)
        } catch {
            throw SessionError(.invalidArgument, "The saved task of run \(taskRunUUID) cannot be read again: \(error)")
        }
        guard case .task(let task) = loaded.document else {
            throw SessionError(.invalidArgument, "The saved task of run \(taskRunUUID) is not a task; it cannot be resumed.")
        }
        let session = TaskSession(task: task, run: resumed.directory, store: store, settings: settings)
        try await session.restore(resumed.manifest, taken: resumed.directory.takenFileNames())
        return session
    }

    func restore(_ manifest: RunManifest, taken: Set<String>) throws(SessionError) {
        let locations = Dictionary(task.allLocations().map { (task.stepPath(of: $0), $0) }, uniquingKeysWith: { first, _ in first })
        // The navigator's history: a step shown again truncates back to it, as a backward move does.
        var history: [StepLocation] = []
        for path in manifest.history {
            guard let location = locations[path] else {
                throw SessionError(.invalidArgument, "The saved run names step \(path), which its task does not have; it cannot be resumed.")
            }
            if let index = history.lastIndex(of: location) { history.removeSubrange((index + 1)...) } else { history.append(location) }
        }
        guard let current = manifest.currentStepPath.flatMap({ locations[$0] }) ?? history.last else {
            throw SessionError(.invalidState, "The saved run \(taskRunUUID) had not shown a step yet; start the task again instead.")
        }
        if history.last != current { history.append(current) }
        do {
            try machine.restore(history: history, runningAsyncActions: actionsStillRunning(at: current, history: history), current: current)
        } catch {
            throw SessionError(.invalidArgument, error.description)
        }
        results = ResultHistory(resuming: manifest.results, at: task.identifiers(along: current))
        machine.restoreHands(from: manifest.results)
        machine.restoreSettings(cohorts: manifest.cohorts, fullInstructions: manifest.fullInstructions)
        shownPaths = manifest.history
        prompts = manifest.prompts
        startDate = manifest.startDate
        takenNames = taken
    }

    /// The actions of the sections around `location` that had started and not yet stopped when
    /// the run was saved there.
    func actionsStillRunning(at location: StepLocation, history: [StepLocation]) -> [AsyncActionReference] {
        let shown = Set(history.dropLast().compactMap { task.step(at: $0)?.identifier })
        let currentIdentifier = task.step(at: location)?.identifier
        var running: [AsyncActionReference] = []
        for owner in location.ancestors {
            for configuration in task.container(at: owner)?.asyncActions ?? [] {
                let started = configuration.startStepIdentifier.map { shown.contains($0) || $0 == currentIdentifier } ?? true
                let stopped = configuration.stopStepIdentifier.map { shown.contains($0) && $0 != currentIdentifier } ?? false
                if started && !stopped {
                    running.append(AsyncActionReference(owner: task.stepPath(of: owner), ownerLocation: owner, configuration: configuration))
                }
            }
        }
        return running
    }
}
