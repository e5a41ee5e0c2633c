import BlockingCalls
import ControlProtocol
import Foundation
import Quality
import RunReport
import Session
import TaskModel

/// What the daemon answers about runs in its store: the list, results, archives, quality
/// checks and reports.
extension DaemonHost {
    /// `run.archive`: where a run's upload archive is.
    func archive(of uuid: UUID) async throws -> ArchiveLocation {
        let summary = try await runSummary(of: uuid)
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
        let summary = try await runSummary(of: uuid)
        let directory = RunDirectory(url: summary.directory, taskRunUUID: uuid)
        if let session, session.taskRunUUID == uuid, await !session.state.isOver {
            // The live run's result as SageResearch has it (open sections not yet in it), and
            // the open sections' own results beside it.
            let live = await session.liveResults
            return RunResult(taskRunUUID: uuid.uuidString, state: .running, runDirectory: summary.directory.path, archive: nil,
                             taskResult: try JSONValue.encoding(live.task), openSections: try live.openSections.map { try JSONValue.encoding($0) })
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
        let summary = try await runSummary(of: uuid)
        guard summary.status == .final else {
            throw ControlError.outOfOrder(method, state: "run \(uuid) is \(summary.status?.rawValue ?? "unreadable")", allowed: ["\(method) once the run has finished"])
        }
        return (uuid, RunDirectory(url: summary.directory, taskRunUUID: uuid))
    }

    /// The run `uuid` as the store lists it; refused as not found when there is none.
    func runSummary(of uuid: UUID) async throws -> RunSummary {
        guard let summary = await runSummaries().first(where: { $0.taskRunUUID == uuid }) else {
            throw ControlError.notFound("run", taskRunUUID: uuid.uuidString)
        }
        return summary
    }
}
