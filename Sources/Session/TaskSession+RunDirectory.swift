import AsyncActions
import BlockingCalls
import Foundation
import Logging
import TaskModel

extension TaskSession {
    /// The run as the manifest records it.
    func manifest() async -> RunManifest {
        var manifest = RunManifest(
            taskRunUUID: taskRunUUID, taskIdentifier: task.identifier, startDate: startDate,
            // The manifest keeps the open sections too, so that resume reopens them and recovery
            // loses none of their steps; `run.result` of the live run shows Sage's view.
            results: results.taskResult(includingOpenSections: true),
            status: state == .saved ? .saved : .running, currentStepPath: machine.navigator.currentStepPath,
            history: shownPaths, controllers: [], prompts: prompts)
        manifest.cohorts = machine.navigator.cohorts.sorted()
        manifest.fullInstructions = machine.navigator.showsFullInstructions
        for key in machine.actions.order {
            guard let entry = controllers[key] else { continue }
            let status = await entry.controller.status
            manifest.controllers.append(RunManifest.Controller(
                identifier: entry.reference.identifier, owner: entry.reference.owner, status: status.description,
                files: entry.files))
        }
        return manifest
    }

    /// Rewrites the run manifest (atomically, off the actor). A failure is reported, never fatal:
    /// the recording goes on and the next write tries again.
    func writeManifest() async {
        guard state != .finished(.discarded) else { return }
        let manifest = await manifest()
        let run = run
        do {
            try await BlockingCall.run("run-manifest") { try run.writeManifest(manifest) }
        } catch {
            logger.error("The run manifest could not be written", metadata: ["error": "\(error)"])
            events.publish(.warning(message: "The run manifest could not be written: \(error). The recording goes on.", identifier: nil))
        }
    }

    /// Writes `taskResult.json`, `answers.json`, `metadata.json` and `prompts.json` at the
    /// result-ready moment (the last completion step shows).
    func writeResults() async {
        let result = results.taskResult()
        let run = run, platform = store.platform, prompts = prompts
        do {
            try await BlockingCall.run("run-results") {
                if !prompts.isEmpty { try run.writePrompts(prompts) }
                _ = try run.writeResults(result, platform: platform)
            }
        } catch {
            logger.error("The results could not be written", metadata: ["error": "\(error)"])
            events.publish(.warning(message: "The results could not be written: \(error)", identifier: nil))
        }
    }

    /// Ends the run on disk: results, archive and a final (or saved) manifest. Returns the archive.
    func finishRun(_ reason: FinishReason, endDate: Date) async -> URL? {
        let manifest = await manifest()
        let run = run, store = store, prompts = prompts
        do {
            let written = try await BlockingCall.run("run-finish") {
                if !prompts.isEmpty { try run.writePrompts(prompts) }
                return try store.finish(run, manifest: manifest, reason: reason, now: endDate)
            }
            return written.archive.map { run.url.appendingPathComponent($0) }
        } catch {
            logger.error("The run could not be finished on disk", metadata: ["error": "\(error)"])
            events.publish(.warning(message: "The run could not be finished on disk: \(error). It is kept as it is; once space is freed, the next run.start (or daemon start) repairs its files and finishes it as interrupted.", identifier: nil))
            return nil
        }
    }

    /// Checks the quality of the finished run and writes `qc.json` (off the actor: it reads
    /// every recorder file). A failure is reported as a warning; the run stays finished.
    func checkQuality() async -> (any RunQualityReport)? {
        guard let checker = settings.quality else { return nil }
        let run = run, store = store
        do {
            return try await BlockingCall.run("run-quality") { () throws(RunStoreError) -> any RunQualityReport in
                try store.writeQuality(of: run, with: checker)
            }
        } catch {
            logger.error("The run's quality could not be checked", metadata: ["error": "\(error)"])
            events.publish(.warning(message: "\(error)", identifier: nil))
            return nil
        }
    }
}
