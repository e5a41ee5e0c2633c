import Foundation

extension RunStore {
    /// Judges a finished run from its files with `checker` and writes its report into its
    /// directory (not into the archive, which is already written): docs/quality.md. Blocks on
    /// the disk.
    @discardableResult
    public func writeQuality<Checker: RunQualityChecking>(of run: RunDirectory, with checker: Checker) throws(RunStoreError) -> Checker.Report {
        do {
            let report = try checker.writeReport(runDirectory: run.url)
            logger.info("The run's quality was checked.", metadata: [
                "taskRunUUID": "\(run.taskRunUUID)", "verdict": "\(report.verdictName)", "problems": "\(report.problems.count)",
            ])
            return report
        } catch {
            let path = run.url.appendingPathComponent(checker.reportFileName).path
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
