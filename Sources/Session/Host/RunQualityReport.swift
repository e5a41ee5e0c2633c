/// What a session needs of a run's quality report: its verdict and its problems. The report
/// itself is the checker's; a host that knows the checker's type reads the rest from it.
public protocol RunQualityReport: Sendable {
    /// `ok`, `warning` or `failed`.
    var verdictName: String { get }
    /// The sentences of the checks that are not ok, worst first.
    var problems: [String] { get }
}
