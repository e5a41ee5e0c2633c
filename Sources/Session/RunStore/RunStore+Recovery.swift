public import Foundation
import SampleFiles
import SystemCalls
import SystemPackage
import TaskModel

extension RunStore {
    /// Finishes every run a crash or stop left `running` (docs/runs.md, docs/daemon.md):
    /// repairs its cut recorder files, gives them file results in the task or section that
    /// declared them, marks the run `interrupted`, and writes its results and archive. Saved
    /// runs are left to be resumed; a run that cannot be read or repaired is reported and left
    /// as it is. Call it when the daemon starts, before any session runs.
    /// Each recovered run's quality is then checked by `quality` (`qc.json`), when given.
    /// Discards a crash cut short are finished first.
    ///
    /// `shouldStop` is asked before each run: once it says yes (the daemon is asked to stop), the
    /// runs not yet recovered stay interrupted for the next start; the one under way is finished.
    public func recoverInterruptedRuns(now: Date = Date(), quality: (any RunQualityChecking)? = nil,
                                       shouldStop: () -> Bool = { false }) -> [RecoveryReport] {
        removeDiscardedLeftovers()
        var reports: [RecoveryReport] = []
        for run in runDirectories() {
            if shouldStop() { break }
            removeTemporaryFiles(in: run)
            let manifest: RunManifest
            do {
                manifest = try run.readManifest()
            } catch {
                logger.error("A run directory cannot be recovered.", metadata: ["taskRunUUID": "\(run.taskRunUUID)", "error": "\(error)"])
                reports.append(RecoveryReport(taskRunUUID: run.taskRunUUID, directory: run.url, repairs: [], problems: [], error: error))
                continue
            }
            guard manifest.status == .running else { continue }
            var report = recover(run, manifest: manifest, now: now)
            if report.error == nil, let quality {
                do {
                    report.quality = try writeQuality(of: run, with: quality)
                } catch {
                    report.problems.append(error.description)
                    logger.error("The quality of a recovered run could not be checked.", metadata: ["taskRunUUID": "\(run.taskRunUUID)", "error": "\(error)"])
                }
            }
            reports.append(report)
        }
        return reports
    }

    private func recover(_ run: RunDirectory, manifest original: RunManifest, now: Date) -> RecoveryReport {
        var manifest = original
        var report = RecoveryReport(taskRunUUID: run.taskRunUUID, directory: run.url, repairs: [], problems: [])
        var lastWrite = manifest.updatedDate
        for controllerIndex in manifest.controllers.indices {
            let controller = manifest.controllers[controllerIndex]
            for fileIndex in controller.files.indices where !controller.files[fileIndex].isFinished {
                let file = controller.files[fileIndex]
                let url = run.url.appendingPathComponent(file.relativePath)
                guard RunDirectory.isInside(file.relativePath), FileManager.default.fileExists(atPath: url.path) else {
                    report.problems.append("The file \(file.relativePath) of \"\(controller.identifier)\" was never written.")
                    continue
                }
                let modified = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? manifest.updatedDate
                lastWrite = max(lastWrite, modified)
                let outcome: SampleFileRepair.Outcome
                do {
                    outcome = try Self.repair(FilePath(url.path), contentType: file.contentType)
                } catch {
                    report.problems.append("The file \(file.relativePath) could not be repaired: \(error). It is kept as it was.")
                    continue
                }
                report.repairs.append((file.relativePath, outcome))
                let result = FileResult(identifier: file.identifier, startDate: file.startDate, endDate: modified,
                                        relativePath: file.relativePath, contentType: file.contentType,
                                        startUptime: file.startUptime, notes: [Self.note(for: outcome)])
                manifest.results.addAsyncResult(result, ownerPath: controller.owner.split(separator: "/").map(String.init))
                manifest.controllers[controllerIndex].files[fileIndex].isFinished = true
            }
        }
        if manifest.results.endDateTime == nil { manifest.results.endDateTime = lastWrite }
        manifest.notes.append("Recovered on \(Timestamp.string(from: now)): the run was interrupted at \(original.currentStepPath ?? "its start"); "
                              + "\(report.repairs.count) recorder file(s) closed, \(report.problems.count) problem(s).")
        manifest.notes += report.problems
        do {
            let finished = try finish(run, manifest: manifest, reason: .interrupted, now: now)
            report.archive = finished.archive.map { run.url.appendingPathComponent($0) }
            logger.notice("Recovered an interrupted run.", metadata: [
                "taskRunUUID": "\(run.taskRunUUID)", "repaired": "\(report.repairs.count)", "problems": "\(report.problems.count)",
            ])
        } catch {
            report.error = error
            logger.error("Could not finish recovering a run.", metadata: ["taskRunUUID": "\(run.taskRunUUID)", "error": "\(error)"])
        }
        return report
    }

    /// Repairs one recorder file by its content type: JSON arrays (motion, levels), CSV, WAV.
    static func repair(_ path: FilePath, contentType: String) throws(SampleFileError) -> SampleFileRepair.Outcome {
        switch contentType {
        case "audio/wav", "audio/x-wav", "audio/wave": try SampleFileRepair.repairWAV(at: path)
        case "text/csv": try SampleFileRepair.repairCSV(at: path)
        default: try SampleFileRepair.repairJSONArray(at: path)
        }
    }

    private static func note(for outcome: SampleFileRepair.Outcome) -> String {
        switch outcome {
        case .alreadyComplete:
            "The run was interrupted; this file was complete."
        case .repaired(let kept, let dropped):
            "The run was interrupted; the file was repaired: \(kept) complete records kept, \(dropped) bytes of a cut record dropped."
        }
    }

    /// Temporary files of a write a crash cut short (`DurableFile`).
    private func removeTemporaryFiles(in run: RunDirectory) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: run.url.path)) ?? []
        for name in names where name.hasPrefix(".") && name.hasSuffix(DurableFile.temporarySuffix) {
            try? FileManager.default.removeItem(at: run.url.appendingPathComponent(name))
        }
    }
}
