/// Why a session refused a command: a code a front end can act on and a sentence that says
/// what to do instead.
public struct SessionError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, Codable {
        /// The command does not fit the session's state (forward before start, start twice, …).
        case invalidState
        /// The command is not allowed on the step shown (back from a completion step, …).
        case notAllowed
        /// A permission request must be answered first.
        case permissionPending
        /// A step result, identifier or answer is not acceptable.
        case invalidArgument
        /// The run directory could not be written.
        case storageFailed
        /// The command names a step other than the one shown (`shownStepPath`).
        case stepNotShown
    }

    public var code: Code
    public var message: String
    /// The member of the command's params at fault (`answers[0].value`), when one is.
    public var codingPath: String?
    /// The step shown when a command named another (`stepNotShown`).
    public var shownStepPath: String?

    public init(_ code: Code, _ message: String, codingPath: String? = nil, shownStepPath: String? = nil) {
        self.code = code
        self.message = message
        self.codingPath = codingPath
        self.shownStepPath = shownStepPath
    }

    public var description: String { message }
}
