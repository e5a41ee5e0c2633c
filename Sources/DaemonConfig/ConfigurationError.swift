/// The configuration was refused: every bad setting, each with its key path and what is allowed.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file read (or "no configuration file").
    public var source: String
    /// Every problem found, in key order.
    public var problems: [ConfigurationProblem]

    public init(source: String, problems: [ConfigurationProblem]) {
        self.source = source
        self.problems = problems
    }

    public var description: String {
        let count = problems.count == 1 ? "1 bad setting" : "\(problems.count) bad settings"
        return "The configuration (\(source), ACTIVETASK_* variables and options) has \(count); fix \(problems.count == 1 ? "it" : "them") and start again:\n"
            + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}
