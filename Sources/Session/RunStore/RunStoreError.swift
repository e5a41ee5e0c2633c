/// Why the run store could not read or write a run, with the system's reason and what to do.
public struct RunStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done: "write the run manifest".
    public var operation: String
    public var path: String
    /// The system's or decoder's reason.
    public var reason: String
    /// What to do about it; empty when there is nothing to add.
    public var advice: String

    public init(_ operation: String, path: String, reason: String, advice: String = "") {
        self.operation = operation
        self.path = path
        self.reason = reason
        self.advice = advice
    }

    public var description: String {
        "Could not \(operation) at \(path): \(reason)." + (advice.isEmpty ? "" : " \(advice)")
    }
}
