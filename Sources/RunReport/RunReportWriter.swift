public import Foundation
import SystemCalls
import Plot
public import Quality

/// Writes a run's report: one self-contained HTML file (inline SVG and CSS, no scripts, nothing
/// fetched) with the overall verdict, the step timeline, the sensor and audio plots with the
/// steps shaded, the quality checks and the run's metadata (docs/quality.md).
public enum RunReportWriter {
    /// The default file name in the run directory.
    public static let defaultFileName = "report.html"

    /// Writes the report of the run in `runDirectory` to `output` (default
    /// `<runDirectory>/report.html`) atomically and returns the path written.
    @discardableResult
    public static func write(runDirectory: URL, to output: URL? = nil, thresholds: QualityThresholds = QualityThresholds()) throws -> URL {
        let destination = output ?? runDirectory.appendingPathComponent(defaultFileName)
        let html = try render(runDirectory: runDirectory, thresholds: thresholds)
        do {
            try DurableFile.write(Array(html.utf8), to: destination.path)
        } catch {
            throw QualityError(path: destination.path, reason: "The report could not be written (\(error.description)); choose a writable --output path.")
        }
        return destination
    }

    /// The report's HTML text.
    public static func render(runDirectory: URL, thresholds: QualityThresholds = QualityThresholds()) throws -> String {
        let data = try ReportData(runDirectory: runDirectory, thresholds: thresholds)
        return ReportPage(data: data).html()
    }
}
