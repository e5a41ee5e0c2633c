/// Step paths as SageResearch writes them into results and sample files: the task identifier,
/// then section identifiers, then the step identifier, joined by `/`, no leading slash
/// (`WalkAndBalance/walk/motion`).
public enum StepPath {
    /// Joins identifiers, outermost first.
    public static func string(_ identifiers: [String]) -> String {
        identifiers.joined(separator: "/")
    }
}
