/// A question step key that does not decode: where (`codingPath`, relative to the step) and why.
public struct QuestionDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    public var codingPath: String
    public var reason: String

    public init(_ codingPath: String, _ reason: String) {
        self.codingPath = codingPath
        self.reason = reason
    }

    public var description: String { "\(codingPath): \(reason)" }
}
