/// Why an answer sent for a question was refused: `codingPath` names it in the forward
/// command's params (`answers[0].value`, `answers` for a missing one) and `message` says what
/// to send instead.
public struct AnswerRejection: Error, Sendable, Hashable, CustomStringConvertible {
    public var codingPath: String
    public var message: String

    public init(_ codingPath: String, _ message: String) {
        self.codingPath = codingPath
        self.message = message
    }

    public var description: String { message }
}
