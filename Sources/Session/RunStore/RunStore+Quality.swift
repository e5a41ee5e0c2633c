import Foundation
public import Quality

extension RunStore {
    /// Judges a finished run from its files and writes `qc.json` into its directory (not into
    /// the archive, which is already written): docs/quality.md. Blocks on the disk.
    @discardableResult
    public func writeQuality(of run: RunDirectory, thresholds: QualityThresholds = QualityThresholds()) throws(RunStoreError) -> QualityReport {
        do {
            let report = try RunQuality.writeReport(runDirectory: run.url, thresholds: thresholds)
            logger.info("The run's quality was checked.", metadata: [
                "taskRunUUID": "\(run.taskRunUUID)", "verdict": "\(report.verdict.rawValue)",
                "failed": "\(report.checks(atLeast: .failed).count)", "warnings": "\(report.checks.filter { $0.verdict == .warning }.count)",
            ])
            return report
        } catch {
            let path = run.url.appendingPathComponent(QualityReport.fileName).path
            // Foundation reports a full disk as a CocoaError whose text is no help to a person.
            if (error as? CocoaError)?.code == .fileWriteOutOfSpace {
                throw RunStoreError("check the quality of the run", path: path, reason: "No space left on device",
                                    advice: "Free space on the data disk, then run `activetaskctl qc` on the run.")
            }
            throw RunStoreError("check the quality of the run", path: path,
                                reason: "\(error)", advice: "The run's results and archive are kept; run `activetaskctl qc` on it to try again.")
        }
    }
}
