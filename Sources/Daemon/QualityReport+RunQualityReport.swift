public import Quality
public import Session

/// Quality's report is what a session passes on as a run's quality (`RunQualityReport`).
extension QualityReport: RunQualityReport {
    public var verdictName: String { verdict.rawValue }

    public var problems: [String] {
        checks.filter { $0.verdict != .ok }.sorted { $0.verdict > $1.verdict }.map(\.message)
    }
}
