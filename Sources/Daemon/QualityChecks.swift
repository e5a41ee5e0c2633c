public import Foundation
public import Quality
public import Session

/// Quality's checks with their thresholds as the checker a task session and its run store
/// judge finished runs with (Session's `RunQualityChecking`, docs/quality.md).
public struct QualityChecks: RunQualityChecking {
    public var thresholds: QualityThresholds

    public init(thresholds: QualityThresholds = QualityThresholds()) {
        self.thresholds = thresholds
    }

    public var reportFileName: String { QualityReport.fileName }

    public func writeReport(runDirectory: URL) throws -> QualityReport {
        try RunQuality.writeReport(runDirectory: runDirectory, thresholds: thresholds)
    }
}
