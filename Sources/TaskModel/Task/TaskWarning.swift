/// Something in a task file that does not stop it from loading but deserves a look, such as
/// an unknown task type or an action skipping to a step the task does not have.
public struct TaskWarning: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Where in the task (`steps[1].steps[5].actions.skip.skipToIdentifier`); `(root)` for the whole.
    public var codingPath: String
    public var message: String

    public init(codingPath: String, message: String) {
        self.codingPath = codingPath
        self.message = message
    }

    public var description: String { "\(codingPath): warning: \(message)" }
}
