public import Foundation

/// Judges a finished (or recovered) run from what is on disk in its directory: per motion
/// sensor rate, sample count, gaps, stuck and clipped values, gravity and gyroscope bias; per
/// microphone recording duration, overruns, levels, silence and clipping; late prompts;
/// failed controllers (docs/quality.md). Files are streamed; memory stays bounded.
public enum RunQuality {
    /// The quality report of the run in `runDirectory`.
    ///
    /// - Parameter requestedFrequency: the motion sampling rate asked for, overriding the task
    ///   copy (`task.json`) and the recorders' notes; when nothing gives it, it is estimated
    ///   from the data and the rate check only reports.
    public static func evaluate(
        runDirectory: URL, thresholds: QualityThresholds = QualityThresholds(), requestedFrequency: Double? = nil
    ) throws -> QualityReport {
        let contents = try RunContents.load(runDirectory)
        return try evaluate(contents, thresholds: thresholds, requestedFrequency: requestedFrequency)
    }

    /// The quality report of already-read run contents.
    public static func evaluate(
        _ contents: RunContents, thresholds: QualityThresholds = QualityThresholds(), requestedFrequency: Double? = nil
    ) throws -> QualityReport {
        var checks: [QualityCheck] = []
        for file in contents.files {
            guard FileManager.default.fileExists(atPath: contents.url(of: file).path) else {
                checks.append(QualityCheck(
                    identifier: file.identifier, check: "file", verdict: .failed,
                    message: "The file \(file.relativePath) named in the results is missing from the run directory: its data is lost.",
                    figures: ["relativePath": .text(file.relativePath)]))
                continue
            }
            guard file.kind == .motion else { continue }
            let requested: (Double, SensorRate.Source)? =
                requestedFrequency.map { ($0, .override) } ?? contents.requestedFrequencies[file.identifier].map { ($0, .task) }
            checks += try MotionChecks.evaluate(
                file: file, url: contents.url(of: file), requested: requested,
                isMotion: contents.requestedFrequencies[file.identifier] != nil, thresholds: thresholds)
        }
        let present = contents.files.filter { FileManager.default.fileExists(atPath: contents.url(of: $0).path) }
        for recording in AudioChecks.recordings(present) {
            checks += try AudioChecks.evaluate(recording, contents: contents, thresholds: thresholds)
        }
        if !contents.prompts.isEmpty {
            checks.append(PromptChecks.evaluate(contents.prompts, thresholds: thresholds))
        }
        checks += ControllerChecks.evaluate(contents.failures)
        return QualityReport(checks: checks)
    }

    /// Evaluates the run and writes `qc.json` into its directory (atomically); returns the report.
    @discardableResult
    public static func writeReport(
        runDirectory: URL, thresholds: QualityThresholds = QualityThresholds(), requestedFrequency: Double? = nil
    ) throws -> QualityReport {
        let report = try evaluate(runDirectory: runDirectory, thresholds: thresholds, requestedFrequency: requestedFrequency)
        try report.write(to: runDirectory.appendingPathComponent(QualityReport.fileName))
        return report
    }
}
