/// A step or section path the result history cannot place: it does not start with the task's
/// identifier. The session passes paths from the navigator, so this is a programming error in
/// the caller, reported instead of trapping.
public struct ResultHistoryError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: [String]
    public var taskIdentifier: String

    public init(path: [String], taskIdentifier: String) {
        self.path = path
        self.taskIdentifier = taskIdentifier
    }

    public var description: String {
        "The path \"\(path.joined(separator: "/"))\" is not inside the task \"\(taskIdentifier)\"; "
            + "step and section paths start with the task identifier (docs/runs.md)."
    }
}
