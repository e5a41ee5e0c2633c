public import TaskModel

/// A run's overall quality verdict and the checks that were not ok, each as one sentence
/// (docs/quality.md).
public struct QualitySummary: Sendable, Hashable, ControlSchemaDescribing {
    /// `ok`, `warning` or `failed`: the worst of the checks.
    public var verdict: String
    /// The messages of the checks that are not ok, worst first.
    public var problems: [String]

    public init(verdict: String, problems: [String]) {
        self.verdict = verdict
        self.problems = problems
    }

    public static var schema: JSONSchema {
        .object([
            .init("verdict", .string(enumeration: ["ok", "warning", "failed"])),
            .init("problems", .array(.string())),
        ], required: ["verdict", "problems"])
    }
}

/// `run.qc`: a run's quality checks as `qc.json` holds them.
public struct RunQualityResult: Sendable, Hashable, ControlSchemaDescribing, ControlResult {
    public var taskRunUUID: String
    public var summary: QualitySummary
    /// `{"verdict", "checks": [{"identifier", "check", "verdict", "message", "figures"}]}`.
    public var report: JSONValue

    public init(taskRunUUID: String, summary: QualitySummary, report: JSONValue) {
        self.taskRunUUID = taskRunUUID
        self.summary = summary
        self.report = report
    }

    public static var schema: JSONSchema {
        .object([
            .init("taskRunUUID", .string(format: "uuid")),
            .init("summary", .reference(to: QualitySummary.self)),
            .init("report", .any),
        ], required: ["taskRunUUID", "summary", "report"])
    }
}

/// `run.report`: where the run's report was written.
public struct ReportLocation: Sendable, Hashable, ControlSchemaDescribing, ControlResult {
    public var taskRunUUID: String
    /// The HTML file (`<run directory>/report.html`).
    public var report: String

    public init(taskRunUUID: String, report: String) {
        self.taskRunUUID = taskRunUUID
        self.report = report
    }

    public static var schema: JSONSchema {
        .object([.init("taskRunUUID", .string(format: "uuid")), .init("report", .string())],
                required: ["taskRunUUID", "report"])
    }
}
